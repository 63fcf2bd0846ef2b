import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const TOKEN_BYTES = 32;
/** Random bytes drawn 64 tokens at a time: one call into OpenSSL costs about as much for 2 KiB as for 32 bytes. */
const POOL_BYTES = 64 * TOKEN_BYTES;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** A bearer token: 32 random bytes, base64url (decisions §1). Each pool byte serves one token only. */
export function newToken(): string {
  if (poolOffset + TOKEN_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + TOKEN_BYTES);
  poolOffset += TOKEN_BYTES;
  return token;
}

/**
 * Tokens are stored only as this hash. Every bearer request hashes its token: the one-shot `hash`
 * costs a third of createHash's 0.7 µs.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random string over an alphabet, from the cryptographic source, without modulo bias. */
export function randomString(length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}
