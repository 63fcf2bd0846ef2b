import { MigrationInterface, QueryRunner } from 'typeorm';

/** Cards and their bound devices, batches, the login log, announcements and Connect customization. */
export class CreateCardsAndConnect1763900000000 implements MigrationInterface {
  name = 'CreateCardsAndConnect1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_batches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        idempotency_key varchar(100),
        count integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, idempotency_key)
      )`);
    await q.query(`
      CREATE TABLE cards (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        code varchar(64) NOT NULL,
        duration_seconds integer NOT NULL CHECK (duration_seconds >= 0),
        device_limit integer NOT NULL CHECK (device_limit >= 1),
        status varchar(10) NOT NULL DEFAULT 'unused' CHECK (status IN ('unused', 'active', 'banned')),
        activated_at timestamptz,
        expires_at timestamptz,
        use_count bigint NOT NULL DEFAULT 0,
        unbind_count integer NOT NULL DEFAULT 0,
        last_login_at timestamptz,
        note varchar(200),
        batch_id uuid REFERENCES card_batches(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, code)
      )`);
    await q.query(`CREATE INDEX cards_batch_idx ON cards (batch_id)`);
    await q.query(`CREATE INDEX cards_project_created_idx ON cards (project_id, id DESC)`);
    await q.query(`
      CREATE TABLE card_devices (
        card_id integer NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
        machine_code varchar(128) NOT NULL,
        bound_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (card_id, machine_code)
      )`);
    await q.query(`
      CREATE TABLE login_logs (
        id bigserial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        card_id integer REFERENCES cards(id) ON DELETE SET NULL,
        card_code varchar(128),
        machine_code varchar(128),
        ip varchar(64),
        family varchar(16) NOT NULL,
        interface varchar(32) NOT NULL,
        result_code integer NOT NULL,
        request_id varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX login_logs_project_idx ON login_logs (project_id, id DESC)`);
    await q.query(`CREATE INDEX login_logs_card_idx ON login_logs (card_id)`);
    await q.query(`
      CREATE TABLE announcements (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        title varchar(200) NOT NULL,
        content text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX announcements_project_idx ON announcements (project_id, enabled, id DESC)`);
    await q.query(`
      CREATE TABLE connect_customizations (
        project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        field_names jsonb NOT NULL DEFAULT '{}'::jsonb,
        token_algorithm varchar(16) CHECK (token_algorithm IN ('md5', 'sha256', 'hmac_sha256')),
        token_template varchar(512),
        secret_enc text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['connect_customizations', 'announcements', 'login_logs', 'card_devices', 'cards', 'card_batches']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
