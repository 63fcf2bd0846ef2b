import { MigrationInterface, QueryRunner } from 'typeorm';

/** The compatible token of a successful card login, as a hash on its log row, so it can be verified later. */
export class AddLoginTokenHash1764300000000 implements MigrationInterface {
  name = 'AddLoginTokenHash1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE login_logs ADD COLUMN token_hash char(64)`);
    await q.query(`CREATE UNIQUE INDEX login_logs_token_idx ON login_logs (token_hash) WHERE token_hash IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE login_logs DROP COLUMN token_hash`);
  }
}
