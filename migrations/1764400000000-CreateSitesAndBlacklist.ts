import { MigrationInterface, QueryRunner } from 'typeorm';

/** Authorized sites and blacklists of licence-file verification (decisions §10, §11). */
export class CreateSitesAndBlacklist1764400000000 implements MigrationInterface {
  name = 'CreateSitesAndBlacklist1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE licence_sites (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        domain varchar(255) NOT NULL,
        licence varchar(128),
        expires_at timestamptz,
        note varchar(200),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX licence_sites_project_domain_idx ON licence_sites (project_id, domain)`);
    await q.query(`
      CREATE TABLE blacklist_entries (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        kind varchar(10) NOT NULL CHECK (kind IN ('domain', 'ip')),
        value varchar(255) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX blacklist_entries_project_kind_value_idx ON blacklist_entries (project_id, kind, value)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS blacklist_entries`);
    await q.query(`DROP TABLE IF EXISTS licence_sites`);
  }
}
