import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { unreachable } from '../../common/unreachable';
import { TransportEncryption } from '../../projects/project.entity';
import { rc4 } from './rc4';

type Sealed = Exclude<TransportEncryption, 'none'>;
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

/**
 * Legacy V1 transport encryption (decisions §10): the request's `data` field is base64 of the
 * encrypted url-encoded fields, and the answer's `data` is encrypted the same way.
 * `rc4` keys with the raw transport key; `aes` is AES-256-CBC keyed with SHA-256(transport key),
 * a random 16-byte IV prefixed; `aes-gcm` (this service's authenticated mode, for new clients) is
 * AES-256-GCM with the same key, `IV (12 bytes) ‖ ciphertext ‖ tag (16 bytes)`.
 * Returns the plaintext bytes; the caller decides what a readable plaintext is.
 */
export function openLegacyPayload(mode: Sealed, transportKey: string, data: string): Buffer {
  const cipher = Buffer.from(data, 'base64');
  switch (mode) {
    case 'rc4':
      return rc4(Buffer.from(transportKey, 'utf8'), cipher);
    case 'aes':
      return aesCbcDecrypt(transportKey, cipher);
    case 'aes-gcm':
      return aesGcmDecrypt(transportKey, cipher);
    default:
      return unreachable(mode, 'transport encryption');
  }
}

/** The answer's `data`, sealed for the client (JSON text inside the ciphertext). */
export function sealLegacyData(mode: Sealed, transportKey: string, payload: unknown): string {
  const plain = Buffer.from(JSON.stringify(payload), 'utf8');
  switch (mode) {
    case 'rc4':
      return rc4(Buffer.from(transportKey, 'utf8'), plain).toString('base64');
    case 'aes':
      return aesCbcEncrypt(transportKey, plain).toString('base64');
    case 'aes-gcm':
      return aesGcmEncrypt(transportKey, plain).toString('base64');
    default:
      return unreachable(mode, 'transport encryption');
  }
}

function aesKey(transportKey: string): Buffer {
  return createHash('sha256').update(transportKey, 'utf8').digest();
}

function aesCbcEncrypt(transportKey: string, plain: Buffer): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', aesKey(transportKey), iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
}

function aesCbcDecrypt(transportKey: string, data: Buffer): Buffer {
  if (data.length < 32) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-cbc', aesKey(transportKey), data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
}

function aesGcmEncrypt(transportKey: string, plain: Buffer): Buffer {
  const iv = randomBytes(GCM_IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', aesKey(transportKey), iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function aesGcmDecrypt(transportKey: string, data: Buffer): Buffer {
  if (data.length < GCM_IV_BYTES + GCM_TAG_BYTES) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', aesKey(transportKey), data.subarray(0, GCM_IV_BYTES), {
    authTagLength: GCM_TAG_BYTES,
  });
  decipher.setAuthTag(data.subarray(data.length - GCM_TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(GCM_IV_BYTES, data.length - GCM_TAG_BYTES)), decipher.final()]);
}
