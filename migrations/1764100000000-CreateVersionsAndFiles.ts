import { MigrationInterface, QueryRunner } from 'typeorm';

/** Uploaded files (bytes under FILES_DIR) and program versions, which may point at one of them. */
export class CreateVersionsAndFiles1764100000000 implements MigrationInterface {
  name = 'CreateVersionsAndFiles1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE files (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        size bigint NOT NULL CHECK (size >= 0),
        sha256 char(64) NOT NULL,
        storage_path varchar(500) NOT NULL,
        download_count bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX files_project_idx ON files (project_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE versions (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        version varchar(32) NOT NULL,
        changelog text NOT NULL DEFAULT '',
        force_update boolean NOT NULL DEFAULT false,
        file_id uuid REFERENCES files(id) ON DELETE SET NULL,
        download_url varchar(500),
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, version),
        CHECK (file_id IS NULL OR download_url IS NULL)
      )`);
    await q.query(`CREATE INDEX versions_file_idx ON versions (file_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS versions`);
    await q.query(`DROP TABLE IF EXISTS files`);
  }
}
