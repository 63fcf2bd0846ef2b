import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { SecretBox } from '../../core/crypto/secret-box';
import { fail, Finding, ok, safeMessage, warn } from './finding';

/** The key the service would use, without generating one (doctor has no side effects): from the environment or DATA_DIR/encryption.key. */
export function readEncryptionKey(config: AppConfig): { key: Buffer | null; finding: Finding | null } {
  if (config.APP_ENCRYPTION_KEY) return { key: SecretBox.parseKey(config.APP_ENCRYPTION_KEY), finding: null };
  const file = join(config.DATA_DIR, 'encryption.key');
  if (!existsSync(file)) return { key: null, finding: ok('encryption key', `none yet: the first start generates ${file}`) };
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (!/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/.test(text)) {
      return {
        key: null,
        finding: fail(
          'encryption key',
          `${file} is not 32 bytes as hex or base64`,
          `restore ${file} from your backup (a new key opens none of the stored secrets)`,
        ),
      };
    }
    const loose = (statSync(file).mode & 0o077) !== 0;
    return {
      key: SecretBox.parseKey(text),
      finding: loose ? warn('encryption key', `${file} can be read by other users`, `chmod 600 ${file}`) : null,
    };
  } catch (error) {
    return {
      key: null,
      finding: fail(
        'encryption key',
        `${file} cannot be read: ${safeMessage(error)}`,
        `give the service's user read access to ${file}`,
      ),
    };
  }
}

/** A round trip through the box that guards every stored secret. */
export function checkEncryptionKey(box: SecretBox | null, extra: Finding | null = null): Finding[] {
  const findings: Finding[] = extra ? [extra] : [];
  if (!box) return findings;
  try {
    const probe = randomBytes(16).toString('hex');
    if (box.decrypt(box.encrypt(probe)) !== probe) throw new Error('the round trip gave another text');
  } catch (error) {
    return [
      ...findings,
      fail(
        'encryption key',
        `unusable: ${safeMessage(error)}`,
        'set APP_ENCRYPTION_KEY to the 32-byte key (64 hex characters) the stored secrets were encrypted with',
      ),
    ];
  }
  return findings.length ? findings : [ok('encryption key', 'present, encrypts and decrypts')];
}
