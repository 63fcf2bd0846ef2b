import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { SecretBox } from './secret-box';

/**
 * APP_ENCRYPTION_KEY when given (required with DATABASE_URL); on the embedded default, a key
 * generated once into DATA_DIR/encryption.key (mode 0600) and reused on every later start.
 */
export function loadEncryptionKey(config: AppConfig): Buffer {
  if (config.APP_ENCRYPTION_KEY) return SecretBox.parseKey(config.APP_ENCRYPTION_KEY);
  const file = join(config.DATA_DIR, 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  }
  return SecretBox.parseKey(readFileSync(file, 'utf8').trim());
}
