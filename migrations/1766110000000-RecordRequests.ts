import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The login log becomes the request log (decisions §22, §24): every client request of a project
 * gets a row, so a row says which route answered it, how long it took and, for a refusal, what the
 * rule said. Columns on the partitioned parent reach every month partition; the card login's row
 * stays written by the login's own statement, so a login costs no extra round trip.
 */
export class RecordRequests1766110000000 implements MigrationInterface {
  name = 'RecordRequests1766110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE login_logs ADD COLUMN route varchar(64), ADD COLUMN duration_ms integer, ADD COLUMN reason varchar(200)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE login_logs DROP COLUMN route, DROP COLUMN duration_ms, DROP COLUMN reason`);
  }
}
