import { createPublicKey, verify } from 'node:crypto';
import { SecretBox } from '../../core/crypto/secret-box';
import { kidOf, privateKeyFromDer, signEd25519 } from '../../signing/ed25519';
import { fail, Finding, ok, Queryable, safeMessage } from './finding';

/** Opens, signs with and verifies every project's active signing key: a key that fails would sign answers no pinned client accepts. */
export async function checkSigningKeys(dataSource: Queryable, box: SecretBox): Promise<Finding[]> {
  // Raw: a Queryable (a data source or a test's query runner) before the schema may exist, so no repository.
  const [table] = (await dataSource.query(`SELECT to_regclass('signing_keys') IS NOT NULL AS present`)) as Array<{
    present: boolean;
  }>;
  if (!table?.present) return [ok('signing keys', 'none yet: the schema is made at the first start')];
  // Raw: the same Queryable, and the key's columns as stored.
  const rows = (await dataSource.query(
    `SELECT project_id, kid, public_key, private_key_enc FROM signing_keys WHERE status = 'active' ORDER BY project_id`,
  )) as Array<{ project_id: string; kid: string; public_key: string; private_key_enc: string }>;
  const failures: string[] = [];
  let unopened = 0;
  const message = Buffer.from(`cardkey-doctor-self-test ${Date.now()}`);
  for (const row of rows) {
    let der: string;
    try {
      der = box.decrypt(row.private_key_enc);
    } catch {
      unopened += 1;
      failures.push(`project ${row.project_id}: the private key does not open with this encryption key`);
      continue;
    }
    try {
      const raw = Buffer.from(row.public_key, 'base64url');
      const signature = Buffer.from(signEd25519(privateKeyFromDer(der), message), 'base64url');
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: row.public_key }, format: 'jwk' });
      if (!verify(null, message, publicKey, signature))
        failures.push(`project ${row.project_id}: a signature does not verify with the published key ${row.kid}`);
      else if (kidOf(raw) !== row.kid.trim())
        failures.push(`project ${row.project_id}: kid ${row.kid} is not that of its public key`);
    } catch (error) {
      failures.push(`project ${row.project_id}: ${safeMessage(error)}`);
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
