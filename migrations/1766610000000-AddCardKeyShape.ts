import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A card type chooses the length and alphabet of its codes' random part. Existing types keep what
 * every code had so far (20 of the unambiguous alphabet); the service refuses shapes with too little
 * entropy or too long for cards.code, the CHECKs only keep the table within the names and range it knows.
 */
export class AddCardKeyShape1766610000000 implements MigrationInterface {
  name = 'AddCardKeyShape1766610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE card_types
        ADD COLUMN key_length integer NOT NULL DEFAULT 20 CHECK (key_length BETWEEN 8 AND 64),
        ADD COLUMN key_alphabet varchar(32) NOT NULL DEFAULT 'upper_digits_unambiguous'
          CHECK (key_alphabet IN ('upper_digits_unambiguous', 'upper_digits', 'lower_digits', 'digits', 'hex_upper'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_types DROP COLUMN IF EXISTS key_alphabet, DROP COLUMN IF EXISTS key_length`);
  }
}
