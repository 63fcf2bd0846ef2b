import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a session ended (decisions §18), written where it is ended (forced offline, a ban, an unbind,
 * a seat taken by a newer login, a logout, a heartbeat that found the card or user unusable): the
 * heartbeat's refusal tells the client, so it can say "your card was banned" without a new login.
 * Null on a live session, and on one that simply reached its expiry.
 */
export class RecordSessionEnds1765700000000 implements MigrationInterface {
  name = 'RecordSessionEnds1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions ADD COLUMN ended_by varchar(24)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP COLUMN IF EXISTS ended_by`);
  }
}
