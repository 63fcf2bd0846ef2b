import { createPublicKey, KeyObject, verify } from 'node:crypto';

/** The author's published response keys, pinned in the program: kid → base64url raw Ed25519 public key. */
export type ResponseKeys = Readonly<Record<string, string>>;

export const RESPONSE_SIGNATURE_HEADERS = {
  timestamp: 'x-svc-response-timestamp',
  key: 'x-svc-response-key',
  signature: 'x-svc-response-signature',
} as const;

/** What the client sent, as the service signs it back (decisions §15). */
export interface SentRequest {
  method: string;
  /** Without the query. */
  path: string;
  /** X-Svc-Nonce or the `nonce` field sent; empty when none was. */
  nonce: string;
}

export interface ReceivedAnswer {
  status: number;
  headers: { get(name: string): string | null };
  /** The body bytes as received. */
  body: Buffer;
}

/** The string the service signs: `svc-response-v1\nMETHOD\nPATH\nNONCE\nTIMESTAMP\nSTATUS\n` + body bytes. */
export function responseSigningInput(request: SentRequest, timestamp: string, status: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`svc-response-v1\n${request.method}\n${request.path}\n${request.nonce}\n${timestamp}\n${status}\n`, 'utf8'), body]);
}

/**
 * Why an answer cannot be trusted, or null when it can: it must carry the three headers, name a
 * pinned key, be signed within `maxSkewSeconds` of `now`, and its Ed25519 signature must cover
 * exactly this request's method, path and nonce, the status and the body bytes received.
 */
export function answerDistrust(answer: ReceivedAnswer, request: SentRequest, keys: ResponseKeys, maxSkewSeconds = 300, now = Date.now() / 1000): string | null {
  const timestamp = answer.headers.get(RESPONSE_SIGNATURE_HEADERS.timestamp);
  const kid = answer.headers.get(RESPONSE_SIGNATURE_HEADERS.key);
  const signature = answer.headers.get(RESPONSE_SIGNATURE_HEADERS.signature);
  if (!timestamp || !kid || !signature) return 'the answer is not signed';
  const publicKey = keys[kid];
  if (!publicKey) return `the answer is signed with an unknown key ${kid}`;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > maxSkewSeconds) return 'the answer signature is outside the time window';
  const valid = verify(null, responseSigningInput(request, timestamp, answer.status, answer.body), ed25519PublicKey(publicKey), Buffer.from(signature, 'base64url'));
  return valid ? null : 'the answer signature does not verify';
}

export function ed25519PublicKey(base64url: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: base64url }, format: 'jwk' });
}
