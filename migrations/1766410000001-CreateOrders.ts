import { MigrationInterface, QueryRunner } from 'typeorm';

const NO_AGENT = '00000000-0000-0000-0000-000000000000';

/**
 * Orders (decisions §19): one per (project, order_id), the cards it made remember it and its agent.
 * Sales statistics come from `sales_daily_counts`, written in the order's transaction (sold,
 * revenue) and by a row trigger on a card's first activation, which fires only for cards of an
 * order (its WHEN clause): every other card's login pays nothing for it. Counts are spread over 16
 * slots per key like login_daily_counts, so concurrent first logins rarely wait on one row; days
 * are local days of the zone the login counts use (login_count_zone).
 */
export class CreateOrders1766410000001 implements MigrationInterface {
  name = 'CreateOrders1766410000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        order_id varchar(64) NOT NULL,
        card_type_id integer NOT NULL REFERENCES card_types(id) ON DELETE RESTRICT,
        count integer NOT NULL CHECK (count BETWEEN 1 AND 1000),
        agent_id uuid REFERENCES agents(id) ON DELETE RESTRICT,
        actor_id uuid,
        unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
        total_cents bigint NOT NULL CHECK (total_cents >= 0),
        commission_agent_id uuid REFERENCES agents(id) ON DELETE RESTRICT,
        commission_unit_cents bigint NOT NULL DEFAULT 0 CHECK (commission_unit_cents >= 0),
        batch_id uuid REFERENCES card_batches(id) ON DELETE SET NULL,
        refunded_count integer NOT NULL DEFAULT 0 CHECK (refunded_count BETWEEN 0 AND count),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, order_id)
      )`);
    await q.query(`CREATE INDEX orders_agent_idx ON orders (agent_id, created_at) WHERE agent_id IS NOT NULL`);
    await q.query(
      `ALTER TABLE cards ADD COLUMN order_id uuid REFERENCES orders(id) ON DELETE SET NULL, ADD COLUMN agent_id uuid`,
    );
    await q.query(`CREATE INDEX cards_agent_idx ON cards (agent_id, id) WHERE agent_id IS NOT NULL`);
    await q.query(`CREATE INDEX cards_order_idx ON cards (order_id) WHERE order_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE sales_daily_counts (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        day date NOT NULL,
        agent_id uuid NOT NULL,
        card_type_id integer NOT NULL,
        slot smallint NOT NULL,
        sold integer NOT NULL DEFAULT 0,
        activated integer NOT NULL DEFAULT 0,
        revenue_cents bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, day, agent_id, card_type_id, slot)
      )`);
    await q.query(`CREATE INDEX sales_daily_counts_agent_idx ON sales_daily_counts (agent_id, day)`);
    await q.query(`
      CREATE FUNCTION count_order_card_activation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO sales_daily_counts AS s (project_id, day, agent_id, card_type_id, slot, activated)
        VALUES (NEW.project_id, (now() AT TIME ZONE (SELECT time_zone FROM login_count_zone))::date,
          coalesce(NEW.agent_id, '${NO_AGENT}'::uuid), coalesce(NEW.card_type_id, 0), pg_backend_pid() % 16, 1)
        ON CONFLICT (project_id, day, agent_id, card_type_id, slot) DO UPDATE SET activated = s.activated + 1;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER cards_count_order_activation AFTER UPDATE OF activated_at ON cards FOR EACH ROW
      WHEN (OLD.activated_at IS NULL AND NEW.activated_at IS NOT NULL AND NEW.order_id IS NOT NULL)
      EXECUTE FUNCTION count_order_card_activation()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER cards_count_order_activation ON cards`);
    await q.query(`DROP FUNCTION count_order_card_activation()`);
    await q.query(`DROP TABLE sales_daily_counts`);
    await q.query(`ALTER TABLE cards DROP COLUMN agent_id, DROP COLUMN order_id`);
    await q.query(`DROP TABLE orders`);
  }
}
