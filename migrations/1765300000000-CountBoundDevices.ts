import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each card counts its bound devices (`cards.bound_devices`), kept by statement triggers on
 * `card_devices` in the writing transaction, whoever writes (a login, an unbind, an import, a card's
 * deletion). A new device's login then checks the device limit in the same conditional UPDATE that
 * takes the use: after a lock wait PostgreSQL re-checks that UPDATE against the card's newest row,
 * count included, where a separate read of `card_devices` would see the snapshot from before the wait.
 */
export class CountBoundDevices1765300000000 implements MigrationInterface {
  name = 'CountBoundDevices1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards ADD COLUMN bound_devices integer NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE cards c SET bound_devices = d.n
      FROM (SELECT card_id, count(*)::integer AS n FROM card_devices GROUP BY card_id) d
      WHERE c.id = d.card_id`);
    await q.query(`
      CREATE FUNCTION count_bound_devices() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE cards c SET bound_devices = c.bound_devices + d.n
          FROM (SELECT card_id, count(*)::integer AS n FROM added_devices GROUP BY card_id) d WHERE c.id = d.card_id;
        ELSE
          UPDATE cards c SET bound_devices = c.bound_devices - d.n
          FROM (SELECT card_id, count(*)::integer AS n FROM removed_devices GROUP BY card_id) d WHERE c.id = d.card_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER count_bound_devices_added AFTER INSERT ON card_devices
      REFERENCING NEW TABLE AS added_devices FOR EACH STATEMENT EXECUTE FUNCTION count_bound_devices()`);
    await q.query(`
      CREATE TRIGGER count_bound_devices_removed AFTER DELETE ON card_devices
      REFERENCING OLD TABLE AS removed_devices FOR EACH STATEMENT EXECUTE FUNCTION count_bound_devices()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER count_bound_devices_removed ON card_devices`);
    await q.query(`DROP TRIGGER count_bound_devices_added ON card_devices`);
    await q.query(`DROP FUNCTION count_bound_devices()`);
    await q.query(`ALTER TABLE cards DROP COLUMN bound_devices`);
  }
}
