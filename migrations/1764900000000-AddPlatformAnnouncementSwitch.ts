import { MigrationInterface, QueryRunner } from 'typeorm';

/** Platform announcements can be hidden and corrected (docs/decisions.md "Platform announcements"). */
export class AddPlatformAnnouncementSwitch1764900000000 implements MigrationInterface {
  name = 'AddPlatformAnnouncementSwitch1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_announcements ADD COLUMN enabled boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE platform_announcements ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_announcements DROP COLUMN updated_at`);
    await q.query(`ALTER TABLE platform_announcements DROP COLUMN enabled`);
  }
}
