import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guessing limits (decisions §23): how many card keys that match no card one client address may
 * send a program in a minute before its card routes answer RATE_LIMITED without a lookup.
 */
export class AddCardGuessLimit1765400000000 implements MigrationInterface {
  name = 'AddCardGuessLimit1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE projects ADD COLUMN card_guess_limit_per_minute integer NOT NULL DEFAULT 20 CHECK (card_guess_limit_per_minute BETWEEN 1 AND 10000)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects DROP COLUMN IF EXISTS card_guess_limit_per_minute`);
  }
}
