import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ed25519 response-signing keys per project and the settings of signed answers and offline
 * licences (decisions §15). Keys are made by the service, not here: the private key must be
 * encrypted with APP_ENCRYPTION_KEY, which migrations do not hold. A project created before this
 * migration gets its key the first time it is needed (its first client answer or key listing).
 */
export class CreateSigningKeys1764700000000 implements MigrationInterface {
  name = 'CreateSigningKeys1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signing_keys (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        kid char(16) NOT NULL,
        public_key varchar(64) NOT NULL,
        private_key_enc text NOT NULL,
        status varchar(10) NOT NULL CHECK (status IN ('active', 'retiring')),
        created_at timestamptz NOT NULL DEFAULT now(),
        retire_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX signing_keys_one_active_idx ON signing_keys (project_id) WHERE status = 'active'`);
    await q.query(`CREATE UNIQUE INDEX signing_keys_kid_idx ON signing_keys (project_id, kid)`);
    await q.query(`ALTER TABLE projects ADD COLUMN response_signing boolean NOT NULL DEFAULT true`);
    await q.query(
      `ALTER TABLE projects ADD COLUMN offline_grace_seconds integer NOT NULL DEFAULT 0 CHECK (offline_grace_seconds BETWEEN 0 AND 2592000)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects DROP COLUMN IF EXISTS offline_grace_seconds`);
    await q.query(`ALTER TABLE projects DROP COLUMN IF EXISTS response_signing`);
    await q.query(`DROP TABLE IF EXISTS signing_keys`);
  }
}
