import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys (issue 34, decisions §19): a shop or a script calls the admin API with `ck_…` as its
 * bearer, with the owner's rights narrowed to the key's scopes, projects and addresses. Only a keyed
 * hash of the key is kept (`key_hash`); `prefix` is its first characters, for recognition. A revoked
 * key keeps its row (`revoked_at`) so the audit rows that name it (`actor_api_key_id`) still lead to
 * its name and owner.
 */
export class CreateApiKeys1766420000000 implements MigrationInterface {
  name = 'CreateApiKeys1766420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES admin_users(id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        prefix varchar(16) NOT NULL,
        key_hash char(64) NOT NULL UNIQUE,
        scopes text[] NOT NULL,
        project_ids uuid[],
        allowed_cidrs text[],
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX admin_api_keys_owner ON admin_api_keys (owner_id, created_at DESC)`);
    await q.query(`ALTER TABLE admin_audit ADD COLUMN actor_api_key_id uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE admin_audit DROP COLUMN IF EXISTS actor_api_key_id`);
    await q.query(`DROP TABLE IF EXISTS admin_api_keys`);
  }
}
