import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card types (decisions §19): a project's named card rules with a price and features. A card made
 * from a type (a batch, an import, later an order) copies the type's rules at creation and keeps
 * `card_type_id`; its features are read from the type at every answer, so an author who adds a
 * feature to a type gives it to the cards already sold. A type that cards or batches name cannot
 * be deleted (the FKs' default NO ACTION; the service answers CARD_TYPE_IN_USE), only disabled;
 * deleting the project still takes everything with it in one statement.
 */
export class CreateCardTypes1765800000000 implements MigrationInterface {
  name = 'CreateCardTypes1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_types (
        id serial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        kind varchar(8) NOT NULL CHECK (kind IN ('time', 'count')),
        duration_seconds integer NOT NULL CHECK (duration_seconds >= 0),
        uses integer CHECK (uses IS NULL OR uses >= 1),
        device_limit integer NOT NULL CHECK (device_limit >= 1),
        concurrent_limit integer CHECK (concurrent_limit IS NULL OR concurrent_limit >= 1),
        features varchar(32)[] NOT NULL DEFAULT '{}',
        price_cents integer NOT NULL CHECK (price_cents >= 0),
        agent_allowed boolean NOT NULL DEFAULT false,
        prefix varchar(16) NOT NULL DEFAULT '',
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, name),
        CHECK ((kind = 'count') = (uses IS NOT NULL))
      )`);
    // Nullable, no default: instant on a large cards table; the partial indexes serve the delete check.
    await q.query(`ALTER TABLE cards ADD COLUMN card_type_id integer REFERENCES card_types(id)`);
    await q.query(`ALTER TABLE card_batches ADD COLUMN card_type_id integer REFERENCES card_types(id)`);
    await q.query(`CREATE INDEX cards_card_type_idx ON cards (card_type_id) WHERE card_type_id IS NOT NULL`);
    await q.query(`CREATE INDEX card_batches_card_type_idx ON card_batches (card_type_id) WHERE card_type_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_batches DROP COLUMN IF EXISTS card_type_id`);
    await q.query(`ALTER TABLE cards DROP COLUMN IF EXISTS card_type_id`);
    await q.query(`DROP TABLE IF EXISTS card_types`);
  }
}
