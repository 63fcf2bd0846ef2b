import { MigrationInterface, QueryRunner } from 'typeorm';

/** Remote variables of a program (legacy app_config, decisions §10): names unique per project. */
export class CreateRemoteVariables1764500000000 implements MigrationInterface {
  name = 'CreateRemoteVariables1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE remote_variables (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        value text NOT NULL CHECK (char_length(value) <= 10000),
        public boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX remote_variables_project_name_idx ON remote_variables (project_id, name)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS remote_variables`);
  }
}
