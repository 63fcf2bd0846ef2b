import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { SecretBox } from './secret-box';

/**
 * APP_ENCRYPTION_KEY when given (required with DATABASE_URL); on the embedded default, a key
 * generated once into DATA_DIR/encryption.key (mode 0600) and reused on every later start.
 */
export function loadEncryptionKey(config: AppConfig): Buffer {
  if (config.APP_ENCRYPTION_KEY) return SecretBox.parseKey(config.APP_ENCRYPTION_KEY);
  const file = encryptionKeyFile(config);
  if (!existsSync(file)) createKeyFile(file);
  return SecretBox.parseKey(readFileSync(file, 'utf8').trim());
}

/** The key as loadEncryptionKey finds it, without making one (a backup or restore tool): null when there is none yet. */
export function existingEncryptionKey(config: AppConfig): Buffer | null {
  if (config.APP_ENCRYPTION_KEY) return SecretBox.parseKey(config.APP_ENCRYPTION_KEY);
  const file = encryptionKeyFile(config);
  return existsSync(file) ? SecretBox.parseKey(readFileSync(file, 'utf8').trim()) : null;
}

/** Where the embedded default keeps its generated key. */
export function encryptionKeyFile(config: AppConfig): string {
  return join(config.DATA_DIR, 'encryption.key');
}

/**
 * Written whole under a name of its own, then linked into place: two processes starting on one fresh
 * DATA_DIR (the second is refused its database later, data-dir-lock.ts) end up reading the same
 * complete key, never one half written or replaced.
 */
function createKeyFile(file: string): void {
  const pending = `${file}.${process.pid}.tmp`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(pending, randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
  try {
    linkSync(pending, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(pending, { force: true });
  }
}
