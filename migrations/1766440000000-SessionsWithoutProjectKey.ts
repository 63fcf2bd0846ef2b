import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Opening a session (every SDK card login and program-user login) no longer locks its project's
 * row: the foreign key's check did, `FOR KEY SHARE`, from every instance at once (a multixact as soon
 * as two logins of one program overlapped), as the login log's keys did (1766430000000). A deleted
 * project's sessions still go with it, by a trigger once per deleting statement. The card's key
 * stays: a login already holds its card's row, and a card's sessions go with it.
 */
export class SessionsWithoutProjectKey1766440000000 implements MigrationInterface {
  name = 'SessionsWithoutProjectKey1766440000000';

  async up(q: QueryRunner): Promise<void> {
    const keys: Array<{ conname: string }> = await q.query(
      `SELECT c.conname FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
       WHERE c.conrelid = 'sessions'::regclass AND c.contype = 'f' AND a.attname = 'project_id'`,
    );
    for (const { conname } of keys) await q.query(`ALTER TABLE sessions DROP CONSTRAINT "${conname}"`);
    await q.query(`
      CREATE FUNCTION forget_deleted_projects_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM sessions WHERE project_id = ANY (ARRAY(SELECT id FROM gone));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER projects_forget_sessions AFTER DELETE ON projects
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION forget_deleted_projects_sessions()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER projects_forget_sessions ON projects`);
    await q.query(`DROP FUNCTION forget_deleted_projects_sessions()`);
    await q.query(`DELETE FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = s.project_id)`);
    await q.query(`ALTER TABLE sessions ADD FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE`);
  }
}
