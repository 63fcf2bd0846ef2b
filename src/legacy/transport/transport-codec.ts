import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { TransportEncryption } from '../../projects/project.entity';
import { rc4 } from './rc4';

/**
 * Legacy V1 transport encryption (decisions §10): the request's `data` field is base64 of the
 * encrypted url-encoded fields, and the answer's `data` is encrypted the same way.
 * `rc4` keys with the raw transport key; `aes` is AES-256-CBC keyed with SHA-256(transport key),
 * a random 16-byte IV prefixed to the ciphertext.
 */
export function openLegacyPayload(mode: TransportEncryption, transportKey: string, data: string): Record<string, string> {
  const cipher = Buffer.from(data, 'base64');
  const plain = mode === 'rc4' ? rc4(Buffer.from(transportKey, 'utf8'), cipher) : mode === 'aes' ? aesDecrypt(transportKey, cipher) : cipher;
  return Object.fromEntries(new URLSearchParams(plain.toString('utf8')));
}

/** The answer's `data`, sealed for the client (JSON text inside the ciphertext). */
export function sealLegacyData(mode: TransportEncryption, transportKey: string, payload: unknown): string {
  const plain = Buffer.from(JSON.stringify(payload), 'utf8');
  const cipher = mode === 'rc4' ? rc4(Buffer.from(transportKey, 'utf8'), plain) : mode === 'aes' ? aesEncrypt(transportKey, plain) : plain;
  return cipher.toString('base64');
}

function aesKey(transportKey: string): Buffer {
  return createHash('sha256').update(transportKey, 'utf8').digest();
}

function aesEncrypt(transportKey: string, plain: Buffer): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', aesKey(transportKey), iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
}

function aesDecrypt(transportKey: string, data: Buffer): Buffer {
  if (data.length < 32) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-cbc', aesKey(transportKey), data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
}
