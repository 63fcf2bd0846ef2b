import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../core/crypto/tokens';

/** Where a signed download address points; `{id}` is a file id. */
export const DOWNLOAD_PATH_PREFIX = '/api/download/';

const KEY_INFO = 'cardkey/download-url/v1';
const EXPIRES = /^[1-9][0-9]{0,11}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * The key that signs download addresses: HKDF-SHA256 of the app's encryption key, so it is never
 * the key that encrypts stored secrets, yet needs no configuration of its own and is the same on
 * every instance.
 */
export function deriveDownloadKey(encryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), KEY_INFO, 32));
}

/** Lowercase hex HMAC-SHA256 over `${id}.${expires}`. */
export function downloadSignature(key: Buffer, id: string, expires: number): string {
  return createHmac('sha256', key).update(`${id}.${expires}`).digest('hex');
}

/** `/api/download/{id}?expires=<unix s>&sig=<hex>`. */
export function signedDownloadPath(key: Buffer, id: string, expires: number): string {
  return `${DOWNLOAD_PATH_PREFIX}${encodeURIComponent(id)}?expires=${expires}&sig=${downloadSignature(key, id, expires)}`;
}

export type DownloadCheck = 'valid' | 'expired' | 'invalid';

/**
 * Checks the query of a download address: `invalid` when `expires` or `sig` is missing or malformed
 * or the signature does not match (compared in constant time), `expired` once `now` (Unix s) is past
 * `expires`. The signature is checked first, so a forged future expiry is `invalid`, never `valid`.
 */
export function checkDownload(key: Buffer, id: string, expires: unknown, sig: unknown, now: number): DownloadCheck {
  if (typeof expires !== 'string' || typeof sig !== 'string' || !EXPIRES.test(expires) || !SIGNATURE.test(sig)) return 'invalid';
  if (!constantTimeEqual(downloadSignature(key, id, Number(expires)), sig)) return 'invalid';
  return now > Number(expires) ? 'expired' : 'valid';
}
