import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rebinding rules and idle devices (decisions §21).
 * - Projects: `unbind_cooldown_seconds` (0 = none), `unbind_max_per_30_days` (null = unlimited) and
 *   `device_idle_release_seconds` (0 = off).
 * - `card_unbinds`: one row per unbind the card holder was granted (client routes and portal), the
 *   history the cooldown and the 30-day maximum count; the author's unbinds and idle releases are
 *   not the holder's and are not counted.
 * - `card_devices.last_seen_at`: the device's last login or heartbeat (heartbeats write it at most
 *   once a minute). Devices bound before this migration count as seen now, so none is released
 *   the moment an author turns the window on.
 */
export class AddRebindingRulesAndIdleDevices1765900000000 implements MigrationInterface {
  name = 'AddRebindingRulesAndIdleDevices1765900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE projects
        ADD COLUMN unbind_cooldown_seconds integer NOT NULL DEFAULT 0 CHECK (unbind_cooldown_seconds >= 0),
        ADD COLUMN unbind_max_per_30_days integer CHECK (unbind_max_per_30_days >= 0),
        ADD COLUMN device_idle_release_seconds integer NOT NULL DEFAULT 0 CHECK (device_idle_release_seconds >= 0)`);
    await q.query(`ALTER TABLE card_devices ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`
      CREATE TABLE card_unbinds (
        id bigserial PRIMARY KEY,
        card_id integer NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
        machine_code varchar(128) NOT NULL,
        unbound_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX card_unbinds_card_time ON card_unbinds (card_id, unbound_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS card_unbinds`);
    await q.query(`ALTER TABLE card_devices DROP COLUMN IF EXISTS last_seen_at`);
    await q.query(`
      ALTER TABLE projects DROP COLUMN IF EXISTS device_idle_release_seconds,
        DROP COLUMN IF EXISTS unbind_max_per_30_days, DROP COLUMN IF EXISTS unbind_cooldown_seconds`);
  }
}
