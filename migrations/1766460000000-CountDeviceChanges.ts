import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each card counts every change to its bound devices (`cards.device_changes`), beside their number,
 * in the same statement triggers. A release that unbinds an idle device and binds a new one leaves
 * the number as it was but not this count: the repeat-login fast path, re-checked by PostgreSQL
 * against the card's newest row after waiting for it, compares the count with the one its snapshot
 * read and so sees that the devices it checked changed meanwhile (card-rule.ts, admitsRepeatLogin).
 */
export class CountDeviceChanges1766460000000 implements MigrationInterface {
  name = 'CountDeviceChanges1766460000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards ADD COLUMN device_changes bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE OR REPLACE FUNCTION count_bound_devices() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE cards c SET bound_devices = c.bound_devices + d.n, device_changes = c.device_changes + d.n
          FROM (SELECT card_id, count(*)::integer AS n FROM added_devices GROUP BY card_id) d WHERE c.id = d.card_id;
        ELSE
          UPDATE cards c SET bound_devices = c.bound_devices - d.n, device_changes = c.device_changes + d.n
          FROM (SELECT card_id, count(*)::integer AS n FROM removed_devices GROUP BY card_id) d WHERE c.id = d.card_id;
        END IF;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION count_bound_devices() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await q.query(`ALTER TABLE cards DROP COLUMN device_changes`);
  }
}
