import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';

/** The author's published response keys, pinned in the program: kid → base64url raw Ed25519 public key. */
export type ResponseKeys = Readonly<Record<string, string>>;

export const RESPONSE_SIGNATURE_HEADERS = {
  timestamp: 'x-svc-response-timestamp',
  key: 'x-svc-response-key',
  signature: 'x-svc-response-signature',
  version: 'x-svc-response-version',
} as const;

/** The only signed string believed (decisions §17); v1 (§15) did not bind the request and is refused. */
export const RESPONSE_SIGNATURE_VERSION = '2';

/** What the client sent, as the service signs it back (decisions §17). */
export interface SentRequest {
  method: string;
  /** Without the query. */
  path: string;
  /** X-Svc-Nonce or the clear `nonce` field sent; empty when none was. */
  nonce: string;
  /** What REQUEST_DIGEST hashes (`requestDigestInput`): the body bytes sent, else the raw query string. */
  digested: Buffer;
}

export interface ReceivedAnswer {
  status: number;
  headers: { get(name: string): string | null };
  /** The body bytes as received. */
  body: Buffer;
}

/**
 * What REQUEST_DIGEST hashes, as the service reads the request: the body bytes sent, or for a GET
 * or HEAD, or a request with no body, the raw query string of `target` (path and query) without `?`.
 */
export function requestDigestInput(method: string, target: string, body?: string | Buffer): Buffer {
  const upper = method.toUpperCase();
  if (body !== undefined && body.length > 0 && upper !== 'GET' && upper !== 'HEAD')
    return Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const query = target.indexOf('?');
  return Buffer.from(query < 0 ? '' : target.slice(query + 1), 'utf8');
}

/** REQUEST_DIGEST: lowercase hex SHA-256 of what was sent. */
export function requestDigest(digested: Buffer): string {
  return createHash('sha256').update(digested).digest('hex');
}

/**
 * The string the service signs (decisions §17):
 * `svc-response-v2\nMETHOD\nPATH\nNONCE\nTIMESTAMP\nSTATUS\nREQUEST_DIGEST\n` + body bytes.
 */
export function responseSigningInput(request: SentRequest, timestamp: string, status: number, body: Buffer): Buffer {
  const head = `svc-response-v2\n${request.method}\n${request.path}\n${request.nonce}\n${timestamp}\n${status}\n${requestDigest(request.digested)}\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), body]);
}

/**
 * Why an answer cannot be trusted, or null when it can: it must carry the signing headers with
 * version 2, name a pinned key, be signed within `maxSkewSeconds` of `now`, and its Ed25519
 * signature must cover exactly this request's method, path, nonce and bytes sent, the status and
 * the body bytes received.
 */
export function answerDistrust(
  answer: ReceivedAnswer,
  request: SentRequest,
  keys: ResponseKeys,
  maxSkewSeconds = 300,
  now = Date.now() / 1000,
): string | null {
  const timestamp = answer.headers.get(RESPONSE_SIGNATURE_HEADERS.timestamp);
  const kid = answer.headers.get(RESPONSE_SIGNATURE_HEADERS.key);
  const signature = answer.headers.get(RESPONSE_SIGNATURE_HEADERS.signature);
  if (!timestamp || !kid || !signature) return 'the answer is not signed';
  const version = answer.headers.get(RESPONSE_SIGNATURE_HEADERS.version);
  if (version !== RESPONSE_SIGNATURE_VERSION)
    return `the answer is not signed in version ${RESPONSE_SIGNATURE_VERSION} (X-Svc-Response-Version: ${version ?? 'none'})`;
  const publicKey = keys[kid];
  if (!publicKey) return `the answer is signed with an unknown key ${kid}`;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > maxSkewSeconds)
    return 'the answer signature is outside the time window';
  const valid = verify(
    null,
    responseSigningInput(request, timestamp, answer.status, answer.body),
    ed25519PublicKey(publicKey),
    Buffer.from(signature, 'base64url'),
  );
  return valid ? null : 'the answer signature does not verify';
}

export function ed25519PublicKey(base64url: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: base64url }, format: 'jwk' });
}
