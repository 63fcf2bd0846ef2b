import { createHmac, hkdfSync } from 'node:crypto';
import { randomString } from '../../core/crypto/tokens';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 40;
/** `ck_` and 40 base62 characters: 40 × log2(62) ≈ 238 random bits. */
export const API_KEY_PATTERN = /^ck_[0-9A-Za-z]{40}$/;
/** What the list shows to recognise a key: `ck_` and its first 8 characters (the other 32 keep 190 bits). */
const PREFIX_LENGTH = 3 + 8;
const KEY_INFO = 'cardkey api-key hash v1';

export function newApiKey(): string {
  return 'ck_' + randomString(BODY_LENGTH, BASE62);
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

/**
 * The stored form of an API key: HMAC-SHA256 under a key derived from the encryption key.
 * A slow password hash (scrypt) buys nothing here: it slows the guessing of low-entropy secrets,
 * and a key is 238 random bits, past any guessing; it would only cost every request tens of
 * milliseconds. Keyed, a copy of the table alone (without APP_ENCRYPTION_KEY) cannot even test a
 * guess. A new APP_ENCRYPTION_KEY therefore retires every key (docs/api-keys.md).
 */
export class ApiKeyHasher {
  private readonly key: Buffer;

  constructor(encryptionKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), KEY_INFO, 32));
  }

  hash(apiKey: string): string {
    return createHmac('sha256', this.key).update(apiKey).digest('hex');
  }
}
