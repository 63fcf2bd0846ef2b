import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The login blacklist (issue 35, decisions §24): per project, a device code or an address / CIDR
 * block refused on every client family before the card rules, until `expires_at` (null = for good).
 * Apart from `blacklist_entries`, which is the site-verification list of `/api/verify` (§10): a
 * different shape (device codes, CIDR, expiry, note) applied to different routes.
 */
export class CreateLoginBlacklist1766100000000 implements MigrationInterface {
  name = 'CreateLoginBlacklist1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE login_blacklist (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        kind varchar(8) NOT NULL CHECK (kind IN ('device', 'address')),
        value varchar(128) NOT NULL,
        note varchar(200),
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, kind, value)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE login_blacklist`);
  }
}
