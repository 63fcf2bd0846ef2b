import { createPublicKey, verify } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SecretBox } from '../../core/crypto/secret-box';
import { isUndefinedTable } from '../../database/pg-errors';
import { kidOf, privateKeyFromDer, signEd25519 } from '../../signing/ed25519';
import { SigningKey } from '../../signing/signing-key.entity';
import { fail, Finding, ok, safeMessage } from './finding';

/**
 * Opens, signs with and verifies every project's active signing key: a key that fails would sign
 * answers no pinned client accepts. Takes a data source's manager, or a test transaction's.
 */
export async function checkSigningKeys(db: EntityManager, box: SecretBox): Promise<Finding[]> {
  let rows: SigningKey[];
  try {
    rows = await db.getRepository(SigningKey).find({
      select: { projectId: true, kid: true, publicKey: true, privateKeyEnc: true },
      where: { status: 'active' },
      order: { projectId: 'ASC' },
    });
  } catch (error) {
    if (isUndefinedTable(error)) return [ok('signing keys', 'none yet: the schema is made at the first start')];
    throw error;
  }
  const failures: string[] = [];
  let unopened = 0;
  const message = Buffer.from(`cardkey-doctor-self-test ${Date.now()}`);
  for (const row of rows) {
    let der: string;
    try {
      der = box.decrypt(row.privateKeyEnc);
    } catch {
      unopened += 1;
      failures.push(`project ${row.projectId}: the private key does not open with this encryption key`);
      continue;
    }
    try {
      const raw = Buffer.from(row.publicKey, 'base64url');
      const signature = Buffer.from(signEd25519(privateKeyFromDer(der), message), 'base64url');
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: row.publicKey }, format: 'jwk' });
      if (!verify(null, message, publicKey, signature))
        failures.push(`project ${row.projectId}: a signature does not verify with the published key ${row.kid}`);
      else if (kidOf(raw) !== row.kid.trim())
        failures.push(`project ${row.projectId}: kid ${row.kid} is not that of its public key`);
    } catch (error) {
      failures.push(`project ${row.projectId}: ${safeMessage(error)}`);
    }
  }
  if (!rows.length) return [ok('signing keys', 'none yet: a project gets its key when it is created')];
  if (!failures.length) return [ok('signing keys', `${rows.length} active key${rows.length === 1 ? '' : 's'} sign and verify`)];
  const more = failures.length > 2 ? ` and ${failures.length - 2} more` : '';
  const fix =
    unopened === failures.length
      ? 'set APP_ENCRYPTION_KEY (or DATA_DIR/encryption.key) back to the key these were encrypted with'
      : 'rotate the key of each project named (POST /admin/v1/projects/{id}/signing-keys/rotate) and publish the new public key to its programs';
  return [fail('signing keys', `${failures.length} of ${rows.length} fail: ${failures.slice(0, 2).join('; ')}${more}`, fix)];
}
