import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The card list's orders and its status filter, served by an index at a million cards of a project
 * (docs/performance.md, scale): newest first (the default), soonest expiry first, and the count of a
 * status. The other orders stay sorts of the matches.
 */
export class IndexCardListOrders1765100000000 implements MigrationInterface {
  name = 'IndexCardListOrders1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX cards_project_created_at_idx ON cards (project_id, created_at, id)`);
    await q.query(`CREATE INDEX cards_project_expires_idx ON cards (project_id, expires_at, id)`);
    await q.query(`CREATE INDEX cards_project_status_idx ON cards (project_id, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX cards_project_status_idx`);
    await q.query(`DROP INDEX cards_project_expires_idx`);
    await q.query(`DROP INDEX cards_project_created_at_idx`);
  }
}
