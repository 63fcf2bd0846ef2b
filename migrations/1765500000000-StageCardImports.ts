import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A card import is one recoverable job (cards-importer.ts). Its rows are first written to
 * `card_import_rows`, where no login, list or export looks, under a batch whose `status` is
 * `pending`; the job keeps `heartbeat_at` fresh. When every row is in and checked the batch turns
 * `publishing` and its rows move into `cards` chunk by chunk, then it is `live` (every batch made
 * before this migration, and every generated batch, is). A pending batch whose heartbeat has gone
 * stale belonged to a process that died: it is deleted with its rows; a publishing one is finished.
 * The unique (project_id, code) reserves a code for its import from the moment it is staged.
 */
export class StageCardImports1765500000000 implements MigrationInterface {
  name = 'StageCardImports1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE card_batches
        ADD COLUMN status varchar(10) NOT NULL DEFAULT 'live' CHECK (status IN ('pending', 'publishing', 'live')),
        ADD COLUMN heartbeat_at timestamptz`);
    await q.query(`CREATE INDEX card_batches_unfinished_idx ON card_batches (heartbeat_at) WHERE status <> 'live'`);
    await q.query(`
      CREATE TABLE card_import_rows (
        batch_id uuid NOT NULL REFERENCES card_batches(id) ON DELETE CASCADE,
        line integer NOT NULL,
        project_id uuid NOT NULL,
        code varchar(64) NOT NULL,
        kind varchar(8) NOT NULL,
        uses_left integer,
        duration_seconds integer NOT NULL,
        device_limit integer NOT NULL,
        concurrent_limit integer,
        note varchar(200),
        status varchar(10) NOT NULL,
        activated_at timestamptz,
        expires_at timestamptz,
        use_count bigint NOT NULL,
        unbind_count integer NOT NULL,
        last_login_at timestamptz,
        devices varchar(128)[] NOT NULL,
        PRIMARY KEY (batch_id, line),
        UNIQUE (project_id, code)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_import_rows`);
    await q.query(`DELETE FROM card_batches WHERE status <> 'live'`);
    await q.query(`DROP INDEX card_batches_unfinished_idx`);
    await q.query(`ALTER TABLE card_batches DROP COLUMN heartbeat_at, DROP COLUMN status`);
  }
}
