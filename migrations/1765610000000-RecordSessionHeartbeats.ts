import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the author's Sessions page needs to tell a live client from a dead one: the client address
 * (of the login, then of the last recorded heartbeat) and the last recorded heartbeat (null: none
 * since the login). Heartbeats record at most once a minute per session (sessions.service.ts).
 */
export class RecordSessionHeartbeats1765610000000 implements MigrationInterface {
  name = 'RecordSessionHeartbeats1765610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE sessions ADD COLUMN address varchar(64) NOT NULL DEFAULT '', ADD COLUMN last_heartbeat_at timestamptz`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP COLUMN IF EXISTS address, DROP COLUMN IF EXISTS last_heartbeat_at`);
  }
}
