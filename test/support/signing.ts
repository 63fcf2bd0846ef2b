import { randomBytes } from 'node:crypto';
import { hmacSignature } from '../../sdk/src';
import { TestApp } from './test-app';

export interface SignOptions {
  timestamp?: number;
  nonce?: string;
  signature?: string;
  omit?: Array<'timestamp' | 'nonce' | 'signature'>;
}

/**
 * Sends a V3 (form) or SDK (JSON) request signed the way decisions §3 says, by the official
 * client's signer (sdk/), not the server's: HMAC-SHA256(api_secret, METHOD\nPATH\nts\nnonce\nRAW_BODY).
 */
export function signedPost(
  t: TestApp,
  path: string,
  body: Record<string, string>,
  kind: 'form' | 'json',
  secret: string,
  options: SignOptions = {},
) {
  const raw = kind === 'form' ? new URLSearchParams(body).toString() : JSON.stringify(body);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = options.nonce ?? randomBytes(12).toString('hex');
  const signature = options.signature ?? hmacSignature(secret, { method: 'POST', path, timestamp, nonce, body: raw });
  const headers: Record<string, string> = {
    'Content-Type': kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Nonce': nonce,
    'X-Svc-Signature': signature,
  };
  for (const name of options.omit ?? []) delete headers[`X-Svc-${name[0].toUpperCase()}${name.slice(1)}`];
  return t.http().post(path).set(headers).send(raw);
}
