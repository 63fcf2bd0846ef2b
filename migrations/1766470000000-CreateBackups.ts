import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Backups of the running service (decisions §24): one row per archive in BACKUP_DIR (`file` is its
 * base name there), made by hand through the admin API, by the schedule or before an upgrade.
 * `created_by` names the admin account that asked, without a foreign key: the row, like an audit
 * row, outlives the account, and a restore puts the table back in any order.
 *
 * `backup_schedule` is one row: when the last scheduled backup was started. Instances sharing the
 * database claim a scheduled turn with one conditional UPDATE on it, so exactly one takes each. It
 * starts at the migration's time: a new deployment's first scheduled backup comes one interval later.
 */
export class CreateBackups1766470000000 implements MigrationInterface {
  name = 'CreateBackups1766470000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE backups (
        id uuid PRIMARY KEY,
        file varchar(255) NOT NULL UNIQUE,
        bytes bigint NOT NULL,
        sha256 char(64) NOT NULL,
        schema varchar(255) NOT NULL,
        trigger varchar(16) NOT NULL CHECK (trigger IN ('manual', 'scheduled', 'upgrade')),
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX backups_by_time ON backups (created_at DESC)`);
    await q.query(`
      CREATE TABLE backup_schedule (
        id smallint PRIMARY KEY CHECK (id = 1),
        last_started_at timestamptz
      )`);
    await q.query(`INSERT INTO backup_schedule (id, last_started_at) VALUES (1, now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS backup_schedule`);
    await q.query(`DROP TABLE IF EXISTS backups`);
  }
}
