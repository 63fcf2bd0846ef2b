import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An agent's orders stay when their project is deleted (decisions §19: agents' ledgers and orders
 * are never deleted): the deletion refunds the unused cards, then detaches the project's orders
 * (project and card type set to NULL) before the project goes. Every ledger entry of an order keeps
 * its order, so the ledger check can verify each debit, commission, refund and clawback against it.
 */
export class OrdersOutliveTheirProject1766450000000 implements MigrationInterface {
  name = 'OrdersOutliveTheirProject1766450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ALTER COLUMN project_id DROP NOT NULL, ALTER COLUMN card_type_id DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM orders WHERE project_id IS NULL OR card_type_id IS NULL`);
    await q.query(`ALTER TABLE orders ALTER COLUMN project_id SET NOT NULL, ALTER COLUMN card_type_id SET NOT NULL`);
  }
}
