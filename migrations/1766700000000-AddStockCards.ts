import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Selling online (decisions §26): a card type says whether the storefront shows it (`for_sale`) and
 * where a sale's cards come from (`stock_mode`: `mint` makes them when paid, `stock` hands out the
 * type's unsold stock). A stock card is a card with the status `stock`: the card rule already reads
 * the status on every login path, so refusing it costs the login nothing new (no join, no column).
 * Selling one turns it `unused`, as any new card. A checkout reserves stock cards by naming itself in
 * `reserved_by` until `reserved_until`; a reservation past its time is free again for the next
 * checkout without any sweep. Neither column is read by a login, and neither has a default, so
 * adding them rewrites nothing.
 */
export class AddStockCards1766700000000 implements MigrationInterface {
  name = 'AddStockCards1766700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE card_types
        ADD COLUMN for_sale boolean NOT NULL DEFAULT false,
        ADD COLUMN stock_mode varchar(8) NOT NULL DEFAULT 'mint' CHECK (stock_mode IN ('mint', 'stock'))`);
    await q.query(`ALTER TABLE cards DROP CONSTRAINT cards_status_check`);
    // NOT VALID, then VALIDATE: the existing rows are checked without holding writes off the table.
    await q.query(
      `ALTER TABLE cards ADD CONSTRAINT cards_status_check CHECK (status IN ('unused', 'active', 'banned', 'consumed', 'stock')) NOT VALID`,
    );
    await q.query(`ALTER TABLE cards VALIDATE CONSTRAINT cards_status_check`);
    await q.query(`ALTER TABLE cards ADD COLUMN reserved_by uuid, ADD COLUMN reserved_until timestamptz`);
    // A checkout's pick of unsold cards of a type, and the cards a checkout reserved.
    await q.query(`CREATE INDEX cards_stock_idx ON cards (card_type_id, id) WHERE status = 'stock'`);
    await q.query(`CREATE INDEX cards_reserved_by_idx ON cards (reserved_by) WHERE reserved_by IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS cards_reserved_by_idx`);
    await q.query(`DROP INDEX IF EXISTS cards_stock_idx`);
    await q.query(`ALTER TABLE cards DROP COLUMN IF EXISTS reserved_until, DROP COLUMN IF EXISTS reserved_by`);
    // Unsold stock cannot be kept as a status the older schema knows: it goes.
    await q.query(`DELETE FROM cards WHERE status = 'stock'`);
    await q.query(`ALTER TABLE cards DROP CONSTRAINT cards_status_check`);
    await q.query(
      `ALTER TABLE cards ADD CONSTRAINT cards_status_check CHECK (status IN ('unused', 'active', 'banned', 'consumed'))`,
    );
    await q.query(`ALTER TABLE card_types DROP COLUMN IF EXISTS stock_mode, DROP COLUMN IF EXISTS for_sale`);
  }
}
