import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../core/crypto/tokens';

/** Header names of the V3 and SDK signature (decisions §3). */
export const SIGNATURE_HEADERS = { timestamp: 'x-svc-timestamp', nonce: 'x-svc-nonce', signature: 'x-svc-signature' } as const;
export const SIGNATURE_WINDOW_SECONDS = 300;
/**
 * How long a nonce is remembered: the whole span in which its timestamp is accepted, both sides of
 * now. A request stamped now+295 s is still accepted 590 s from now; a nonce forgotten after 300 s
 * could be replayed in that time.
 */
export const NONCE_MEMORY_SECONDS = 2 * SIGNATURE_WINDOW_SECONDS;
export const HMAC_NONCE_PATTERN = /^[A-Za-z0-9_.:-]{8,96}$/;

export interface SignedParts {
  method: string;
  path: string;
  timestamp: string;
  nonce: string;
  rawBody: Buffer | string;
}

/** The string that is signed: METHOD \n PATH \n timestamp \n nonce \n RAW_BODY. */
export function signingInput(parts: SignedParts): Buffer {
  const head = `${parts.method.toUpperCase()}\n${parts.path}\n${parts.timestamp}\n${parts.nonce}\n`;
  return Buffer.concat([
    Buffer.from(head, 'utf8'),
    Buffer.isBuffer(parts.rawBody) ? parts.rawBody : Buffer.from(parts.rawBody, 'utf8'),
  ]);
}

/** Lowercase hex HMAC-SHA256 of the signing input under the project's api_secret. */
export function sign(secret: string, parts: SignedParts): string {
  return createHmac('sha256', secret).update(signingInput(parts)).digest('hex');
}

export function signatureMatches(secret: string, parts: SignedParts, signature: string): boolean {
  return constantTimeEqual(sign(secret, parts), signature.toLowerCase());
}
