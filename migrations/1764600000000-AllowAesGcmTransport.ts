import { MigrationInterface, QueryRunner } from 'typeorm';

/** Transport encryption `aes-gcm`: authenticated AES for new Legacy V1 clients (docs/security.md). */
export class AllowAesGcmTransport1764600000000 implements MigrationInterface {
  name = 'AllowAesGcmTransport1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects DROP CONSTRAINT IF EXISTS projects_transport_encryption_check`);
    await q.query(
      `ALTER TABLE projects ADD CONSTRAINT projects_transport_encryption_check CHECK (transport_encryption IN ('none', 'rc4', 'aes', 'aes-gcm'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE projects SET transport_encryption = 'aes' WHERE transport_encryption = 'aes-gcm'`);
    await q.query(`ALTER TABLE projects DROP CONSTRAINT IF EXISTS projects_transport_encryption_check`);
    await q.query(
      `ALTER TABLE projects ADD CONSTRAINT projects_transport_encryption_check CHECK (transport_encryption IN ('none', 'rc4', 'aes'))`,
    );
  }
}
