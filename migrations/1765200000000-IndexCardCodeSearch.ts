import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The card list's searches by code at a million cards (docs/performance.md, scale): a prefix
 * (`code_prefix`, a pattern-ops index) and a part of a code (`q`, ILIKE '%…%': a trigram index of
 * pg_trgm). pg_trgm is a trusted extension that a database owner may create; where the role cannot,
 * the search works as before, without its index, and the migration says so instead of failing.
 */
export class IndexCardCodeSearch1765200000000 implements MigrationInterface {
  name = 'IndexCardCodeSearch1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX cards_project_code_pattern_idx ON cards (project_id, code varchar_pattern_ops)`);
    await q.query('SAVEPOINT pg_trgm');
    try {
      await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await q.query('RELEASE SAVEPOINT pg_trgm');
    } catch (error) {
      await q.query('ROLLBACK TO SAVEPOINT pg_trgm');
      process.stderr.write(
        `warning: no pg_trgm (${error instanceof Error ? error.message : String(error)}): card search by part of a code runs without an index\n`,
      );
      return;
    }
    await q.query(`CREATE INDEX cards_code_trgm_idx ON cards USING gin (code gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS cards_code_trgm_idx`);
    await q.query(`DROP INDEX cards_project_code_pattern_idx`);
  }
}
