import { MigrationInterface, QueryRunner } from 'typeorm';

/** SDK sessions (card and program-user), each a token hash with an expiry and a revocation mark. */
export class CreateSessions1764000000000 implements MigrationInterface {
  name = 'CreateSessions1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sessions (
        id bigserial PRIMARY KEY,
        token_hash char(64) NOT NULL UNIQUE,
        type varchar(10) NOT NULL CHECK (type IN ('card', 'app_user')),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        card_id integer REFERENCES cards(id) ON DELETE CASCADE,
        user_id integer,
        machine_code varchar(128) NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((type = 'card') = (card_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX sessions_card_idx ON sessions (card_id) WHERE revoked_at IS NULL`);
    await q.query(`CREATE INDEX sessions_user_idx ON sessions (project_id, user_id) WHERE revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS sessions`);
  }
}
