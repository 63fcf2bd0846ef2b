import { MigrationInterface, QueryRunner } from 'typeorm';

/** Program users (decisions §6): per project, usernames unique ignoring case. */
export class CreateAppUsers1764200000000 implements MigrationInterface {
  name = 'CreateAppUsers1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE app_users (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        username varchar(32) NOT NULL,
        password_hash text NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'banned')),
        bound_machine_id varchar(128),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_login_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX app_users_project_username_idx ON app_users (project_id, lower(username))`);
    await q.query(`CREATE INDEX app_users_project_idx ON app_users (project_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS app_users`);
  }
}
