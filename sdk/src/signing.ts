import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Header names of the V3 and SDK signature. */
export const SIGNATURE_HEADERS = {
  timestamp: 'X-Svc-Timestamp',
  nonce: 'X-Svc-Nonce',
  signature: 'X-Svc-Signature',
} as const;

export interface HmacParts {
  method: string;
  /** The route path as the service sees it, without the query string. */
  path: string;
  /** Unix seconds, as sent in X-Svc-Timestamp. */
  timestamp: string;
  nonce: string;
  /** The exact bytes sent as the body. */
  body: string;
}

/** The string the V3 and SDK families sign: METHOD \n PATH \n timestamp \n nonce \n RAW_BODY. */
export function hmacSigningInput(parts: HmacParts): string {
  return `${parts.method.toUpperCase()}\n${parts.path}\n${parts.timestamp}\n${parts.nonce}\n${parts.body}`;
}

/** X-Svc-Signature: lowercase hex HMAC-SHA256 of the signing input (UTF-8) under the api_secret. */
export function hmacSignature(apiSecret: string, parts: HmacParts): string {
  return createHmac('sha256', apiSecret).update(hmacSigningInput(parts), 'utf8').digest('hex');
}

/** The three signature headers of one request, with a fresh nonce unless one is given. */
export function signatureHeaders(
  apiSecret: string,
  parts: Omit<HmacParts, 'timestamp' | 'nonce'> & Partial<HmacParts>,
): Record<string, string> {
  const timestamp = parts.timestamp ?? String(unixSeconds());
  const nonce = parts.nonce ?? newNonce();
  return {
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: hmacSignature(apiSecret, { ...parts, timestamp, nonce }),
  };
}

/**
 * The string the legacy MD5 routes sign: every non-empty field except `sign`, sorted by name, as
 * `k=v` joined by `&` (raw values, never URL-encoded), then `&key=` + legacy_secret.
 */
export function md5SigningInput(fields: Readonly<Record<string, string>>, legacySecret: string): string {
  const pairs = Object.keys(fields)
    .filter((name) => name !== 'sign' && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`);
  return `${pairs.join('&')}&key=${legacySecret}`;
}

/** `sign`: lowercase hex MD5 of the legacy signing input (UTF-8). */
export function md5Sign(fields: Readonly<Record<string, string>>, legacySecret: string): string {
  return createHash('md5').update(md5SigningInput(fields, legacySecret), 'utf8').digest('hex');
}

/** The fields plus `t` (now, unless given) and their `sign`. */
export function md5SignedFields(fields: Readonly<Record<string, string>>, legacySecret: string): Record<string, string> {
  const withTime = { t: String(unixSeconds()), ...fields };
  return { ...withTime, sign: md5Sign(withTime, legacySecret) };
}

/** 24 hex characters: inside every nonce rule of the service (V3/SDK 8–96, Connect 1–96). */
export function newNonce(): string {
  return randomBytes(12).toString('hex');
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
