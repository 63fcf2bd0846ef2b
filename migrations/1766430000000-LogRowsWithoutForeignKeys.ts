import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The request log's rows stop checking their project and card as they are written (decisions.md,
 * "The request log without foreign keys"). A foreign-key check locks the referenced row FOR KEY
 * SHARE: every log row, from every instance at once, locked its project's one row (a multixact once
 * two transactions held it) and its card's, which was 40 % of PostgreSQL's CPU per row. What the
 * keys did on a delete stays exactly as it was, done once per deleting statement by a trigger: a
 * deleted card's rows keep their code and lose its id, a deleted project's rows go.
 */
export class LogRowsWithoutForeignKeys1766430000000 implements MigrationInterface {
  name = 'LogRowsWithoutForeignKeys1766430000000';

  async up(q: QueryRunner): Promise<void> {
    const keys: Array<{ conname: string }> = await q.query(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'login_logs'::regclass AND contype = 'f' AND conparentid = 0`,
    );
    for (const { conname } of keys) await q.query(`ALTER TABLE login_logs DROP CONSTRAINT "${conname}"`);
    // ANY(ARRAY(…)): one index probe per deleted id (login_logs_card_device_idx, login_logs_project_idx),
    // as the keys' own actions did, whatever the planner guesses of a transition table's size.
    await q.query(`
      CREATE FUNCTION forget_deleted_cards_in_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE login_logs SET card_id = NULL WHERE card_id = ANY (ARRAY(SELECT id FROM gone));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER cards_forget_in_log AFTER DELETE ON cards
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION forget_deleted_cards_in_log()`);
    await q.query(`
      CREATE FUNCTION forget_deleted_projects_in_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM login_logs WHERE project_id = ANY (ARRAY(SELECT id FROM gone));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER projects_forget_in_log AFTER DELETE ON projects
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION forget_deleted_projects_in_log()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER projects_forget_in_log ON projects`);
    await q.query(`DROP FUNCTION forget_deleted_projects_in_log()`);
    await q.query(`DROP TRIGGER cards_forget_in_log ON cards`);
    await q.query(`DROP FUNCTION forget_deleted_cards_in_log()`);
    // Rows written for a project or card deleted in the meantime would fail the keys.
    await q.query(`DELETE FROM login_logs l WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = l.project_id)`);
    await q.query(
      `UPDATE login_logs l SET card_id = NULL WHERE card_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cards c WHERE c.id = l.card_id)`,
    );
    await q.query(
      `ALTER TABLE login_logs ADD FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE, ADD FOREIGN KEY (card_id) REFERENCES cards(id) ON DELETE SET NULL`,
    );
  }
}
