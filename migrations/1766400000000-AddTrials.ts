import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trials (decisions §21): one trial card per device per project, for ever.
 * - `projects.trial_card_type_id` (null = off): the type trial cards are made from. The FK's default
 *   NO ACTION makes the trial type a type in use (CARD_TYPE_IN_USE on delete, like a type cards name).
 * - `cards.trial`: stored on the card so that every answer about it says `trial: true` from the row
 *   the login already reads (no extra query on the hot path). `DEFAULT false` is instant in PostgreSQL 11+.
 * - `card_trials`: the device's one trial, unique by (project, machine code). The row is claimed
 *   first with ON CONFLICT DO NOTHING in the transaction that makes the card, so racing requests
 *   (on any instance) wait on the unique index and read the winner's card. `card_id` is set in the
 *   same transaction; it becomes null if the author deletes the card, and the device stays used.
 * - Interface `card_trial` (opt-out like the others).
 */
export class AddTrials1766400000000 implements MigrationInterface {
  name = 'AddTrials1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects ADD COLUMN trial_card_type_id integer REFERENCES card_types(id)`);
    await q.query(
      `CREATE INDEX projects_trial_card_type_idx ON projects (trial_card_type_id) WHERE trial_card_type_id IS NOT NULL`,
    );
    await q.query(`ALTER TABLE cards ADD COLUMN trial boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE card_trials (
        id bigserial PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        machine_code varchar(128) NOT NULL,
        card_id integer REFERENCES cards(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, machine_code)
      )`);
    await q.query(`CREATE INDEX card_trials_card_idx ON card_trials (card_id) WHERE card_id IS NOT NULL`);
    await q.query(`INSERT INTO platform_interfaces (name) VALUES ('card_trial') ON CONFLICT DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM project_interfaces WHERE name = 'card_trial'`);
    await q.query(`DELETE FROM platform_interfaces WHERE name = 'card_trial'`);
    await q.query(`DROP TABLE IF EXISTS card_trials`);
    await q.query(`ALTER TABLE cards DROP COLUMN IF EXISTS trial`);
    await q.query(`ALTER TABLE projects DROP COLUMN IF EXISTS trial_card_type_id`);
  }
}
