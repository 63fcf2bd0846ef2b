import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An agent's own price for a card type (docs/commerce.md, "Prices per card type"): when a row is
 * here, it is what one card of that type costs the agent, instead of the list price less the
 * agent's discount. Both keys cascade: a price means nothing without its agent or its type.
 * `updated_by` names the admin account that set it, without a foreign key, as audit rows do.
 */
export class CreateAgentPrices1766600000000 implements MigrationInterface {
  name = 'CreateAgentPrices1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_prices (
        agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        card_type_id integer NOT NULL REFERENCES card_types(id) ON DELETE CASCADE,
        price_cents integer NOT NULL CHECK (price_cents >= 0),
        updated_by uuid,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (agent_id, card_type_id)
      )`);
    await q.query(`CREATE INDEX agent_prices_type_idx ON agent_prices (card_type_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS agent_prices`);
  }
}
