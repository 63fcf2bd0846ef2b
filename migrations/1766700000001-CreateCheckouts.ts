import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The storefront's money side (decisions §26):
 * - `payment_providers`: a project's settings per provider; the secret fields are one encrypted
 *   JSON text (APP_ENCRYPTION_KEY, as every stored secret), the rest plain JSON;
 * - `checkouts`: a buyer's checkout, its price fixed when made, its secret token stored only as a
 *   hash, and, once paid, the §19 order it made (`order_id`; the order's own `order_id` is the
 *   checkout's id). `status` is stored as pending, paid, refund_needed or failed; "expired" is a
 *   pending checkout past `expires_at`, read, never written;
 * - `payment_refusals`: every notification refused, with why, whether or not it named a checkout
 *   that exists (`reference` keeps what it named).
 * A checkout's card type is kept like a card's (NO ACTION: the type is then in use); deleting the
 * project takes all three with it, while the orders it made outlive it (1766450000000).
 */
export class CreateCheckouts1766700000001 implements MigrationInterface {
  name = 'CreateCheckouts1766700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_providers (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        provider varchar(16) NOT NULL,
        enabled boolean NOT NULL DEFAULT false,
        settings jsonb NOT NULL DEFAULT '{}',
        secrets_enc text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, provider)
      )`);
    await q.query(`
      CREATE TABLE checkouts (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        card_type_id integer NOT NULL REFERENCES card_types(id),
        provider varchar(16) NOT NULL,
        count integer NOT NULL CHECK (count BETWEEN 1 AND 100),
        email varchar(254) NOT NULL,
        unit_price_cents integer NOT NULL CHECK (unit_price_cents > 0),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency char(3) NOT NULL,
        stock boolean NOT NULL,
        token_hash char(64) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'refund_needed', 'failed')),
        expires_at timestamptz NOT NULL,
        paid_at timestamptz,
        trade_no varchar(64),
        order_id uuid REFERENCES orders(id) ON DELETE SET NULL,
        problem varchar(200),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX checkouts_project_idx ON checkouts (project_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX checkouts_card_type_idx ON checkouts (card_type_id)`);
    await q.query(`
      CREATE TABLE payment_refusals (
        id bigserial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        provider varchar(16) NOT NULL,
        checkout_id uuid,
        reference varchar(64),
        reason varchar(32) NOT NULL,
        detail varchar(300),
        client_ip varchar(64),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payment_refusals_project_idx ON payment_refusals (project_id, id DESC)`);
    await q.query(`CREATE INDEX payment_refusals_checkout_idx ON payment_refusals (checkout_id) WHERE checkout_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS payment_refusals`);
    await q.query(`DROP TABLE IF EXISTS checkouts`);
    await q.query(`DROP TABLE IF EXISTS payment_providers`);
  }
}
