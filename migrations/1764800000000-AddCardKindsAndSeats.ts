import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cards as the field uses them (decisions §13, §14): count cards (`kind`, `uses_left`), top-up
 * (a consumed card keeps its row, status `consumed`), seats (`concurrent_limit` per card, the
 * project's default and `seat_policy`), the card-holder portal switch, the interfaces
 * `card_info` and `card_topup`, and each bound device's last login for the card-holder's view.
 */
export class AddCardKindsAndSeats1764800000000 implements MigrationInterface {
  name = 'AddCardKindsAndSeats1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards ADD COLUMN kind varchar(8) NOT NULL DEFAULT 'time' CHECK (kind IN ('time', 'count'))`);
    await q.query(`ALTER TABLE cards ADD COLUMN uses_left integer CHECK (uses_left >= 0)`);
    await q.query(`ALTER TABLE cards ADD CONSTRAINT cards_count_has_uses CHECK ((kind = 'count') = (uses_left IS NOT NULL))`);
    await q.query(`ALTER TABLE cards ADD COLUMN concurrent_limit integer CHECK (concurrent_limit >= 1)`);
    await q.query(`ALTER TABLE cards DROP CONSTRAINT cards_status_check`);
    await q.query(
      `ALTER TABLE cards ADD CONSTRAINT cards_status_check CHECK (status IN ('unused', 'active', 'banned', 'consumed'))`,
    );
    await q.query(`ALTER TABLE projects ADD COLUMN concurrent_limit integer CHECK (concurrent_limit >= 1)`);
    await q.query(
      `ALTER TABLE projects ADD COLUMN seat_policy varchar(16) NOT NULL DEFAULT 'refuse' CHECK (seat_policy IN ('refuse', 'evict_oldest'))`,
    );
    await q.query(`ALTER TABLE projects ADD COLUMN portal_enabled boolean NOT NULL DEFAULT true`);
    await q.query(`INSERT INTO platform_interfaces (name) VALUES ('card_info'), ('card_topup') ON CONFLICT DO NOTHING`);
    // The card index, widened to find a device's last login (card info) without reading the card's whole log.
    await q.query(`CREATE INDEX login_logs_card_device_idx ON login_logs (card_id, machine_code, id DESC)`);
    await q.query(`DROP INDEX login_logs_card_idx`);
    // Deleting cards (bulk delete) finds their sessions, revoked ones included, through this one.
    await q.query(`CREATE INDEX sessions_card_all_idx ON sessions (card_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS sessions_card_all_idx`);
    await q.query(`CREATE INDEX IF NOT EXISTS login_logs_card_idx ON login_logs (card_id)`);
    await q.query(`DROP INDEX IF EXISTS login_logs_card_device_idx`);
    await q.query(`DELETE FROM project_interfaces WHERE name IN ('card_info', 'card_topup')`);
    await q.query(`DELETE FROM platform_interfaces WHERE name IN ('card_info', 'card_topup')`);
    await q.query(`ALTER TABLE projects DROP COLUMN portal_enabled, DROP COLUMN seat_policy, DROP COLUMN concurrent_limit`);
    await q.query(`UPDATE cards SET status = 'banned' WHERE status = 'consumed'`);
    await q.query(`ALTER TABLE cards DROP CONSTRAINT cards_status_check`);
    await q.query(`ALTER TABLE cards ADD CONSTRAINT cards_status_check CHECK (status IN ('unused', 'active', 'banned'))`);
    await q.query(
      `ALTER TABLE cards DROP COLUMN concurrent_limit, DROP CONSTRAINT cards_count_has_uses, DROP COLUMN uses_left, DROP COLUMN kind`,
    );
  }
}
