import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A project's transport_encryption other than `none` (docs/protocol.md 5.5). */
export type TransportMode = 'rc4' | 'aes' | 'aes-gcm';

export interface LegacyTransport {
  mode: TransportMode;
  /** The project's transport_key, used as its UTF-8 text (never hex-decoded). */
  key: string;
}

const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

/**
 * `data` of an encrypted aggregate request: base64 of the url-encoded fields, encrypted. `iv` is for
 * the shared test vectors only: a real request draws a fresh random IV (aes: 16 bytes, aes-gcm: 12).
 */
export function sealLegacyRequest(transport: LegacyTransport, fields: Readonly<Record<string, string>>, iv?: Buffer): string {
  return sealText(transport, new URLSearchParams(fields).toString(), iv);
}

/** Encrypts UTF-8 text as the service does (the answer's `data` is sealed this way too). */
export function sealText(transport: LegacyTransport, text: string, iv?: Buffer): string {
  const plain = Buffer.from(text, 'utf8');
  switch (transport.mode) {
    case 'rc4':
      return rc4(Buffer.from(transport.key, 'utf8'), plain).toString('base64');
    case 'aes': {
      const nonce = iv ?? randomBytes(16);
      const cipher = createCipheriv('aes-256-cbc', aesKey(transport.key), nonce);
      return Buffer.concat([nonce, cipher.update(plain), cipher.final()]).toString('base64');
    }
    case 'aes-gcm': {
      const nonce = iv ?? randomBytes(GCM_IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', aesKey(transport.key), nonce);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
    }
    default:
      throw new TypeError(`Unknown transport mode ${String(transport.mode as unknown)}`);
  }
}

/** The UTF-8 text inside base64 `data`; throws when it does not open (wrong key, tampered, truncated). */
export function openText(transport: LegacyTransport, data: string): string {
  const sealed = Buffer.from(data, 'base64');
  switch (transport.mode) {
    case 'rc4':
      return rc4(Buffer.from(transport.key, 'utf8'), sealed).toString('utf8');
    case 'aes': {
      if (sealed.length < 32) throw new Error('ciphertext too short');
      const decipher = createDecipheriv('aes-256-cbc', aesKey(transport.key), sealed.subarray(0, 16));
      return Buffer.concat([decipher.update(sealed.subarray(16)), decipher.final()]).toString('utf8');
    }
    case 'aes-gcm': {
      if (sealed.length < GCM_IV_BYTES + GCM_TAG_BYTES) throw new Error('ciphertext too short');
      const decipher = createDecipheriv('aes-256-gcm', aesKey(transport.key), sealed.subarray(0, GCM_IV_BYTES), {
        authTagLength: GCM_TAG_BYTES,
      });
      decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES));
      return Buffer.concat([
        decipher.update(sealed.subarray(GCM_IV_BYTES, sealed.length - GCM_TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    }
    default:
      throw new TypeError(`Unknown transport mode ${String(transport.mode as unknown)}`);
  }
}

function aesKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** RC4 without keystream drop (KSA + PRGA): Node's OpenSSL 3 no longer offers it by default. */
export function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}
