import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `card.expiring_soon` (decisions §20) is told once per card: the scan (src/webhooks/card-expiry-scan.ts)
 * records the expiry it announced. Keeping the expiry rather than a flag means a card extended after
 * its notice is told again about its new expiry, and never twice about the same one.
 */
export class MarkCardExpiryNotices1766300000000 implements MigrationInterface {
  name = 'MarkCardExpiryNotices1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards ADD COLUMN expiry_notice_for timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards DROP COLUMN IF EXISTS expiry_notice_for`);
  }
}
