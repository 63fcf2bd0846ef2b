import { createHash } from 'node:crypto';
import { unixSeconds } from '../../common/time';
import { constantTimeEqual } from '../../core/crypto/tokens';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';

/** Legacy V1 parameter signature (decisions §3): fields `t` (Unix s) and `sign`. */
export const MD5_SIGNATURE_FIELD = 'sign';
export const MD5_TIMESTAMP_FIELD = 't';
export const MD5_WINDOW_SECONDS = 300;

/**
 * The string that is signed: every non-empty field except `sign`, sorted by name (code-unit
 * order), as `k=v` joined by `&`, then `&key=` + legacy_secret. Values are the raw (decoded) field
 * values, never re-encoded.
 */
export function md5SigningInput(fields: Readonly<Record<string, string>>, legacySecret: string): string {
  const pairs = Object.keys(fields)
    .filter((name) => name !== MD5_SIGNATURE_FIELD && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`);
  return `${pairs.join('&')}&key=${legacySecret}`;
}

/** `sign`: lowercase hex MD5 of the signing input. */
export function md5Sign(fields: Readonly<Record<string, string>>, legacySecret: string): string {
  return createHash('md5').update(md5SigningInput(fields, legacySecret), 'utf8').digest('hex');
}

/**
 * Checks `sign` (constant time, case-insensitive hex), then `t` within ±300 s of `now`: a missing or
 * wrong sign is SIGNATURE_INVALID, a missing or stale `t` is TIMESTAMP_OUT_OF_WINDOW.
 */
export function verifyMd5Signature(fields: Readonly<Record<string, string>>, legacySecret: string, now = unixSeconds()): void {
  const signature = fields[MD5_SIGNATURE_FIELD] ?? '';
  if (!signature || !constantTimeEqual(md5Sign(fields, legacySecret), signature.toLowerCase()))
    throw new ServiceError(ErrorCode.SIGNATURE_INVALID);
  const t = fields[MD5_TIMESTAMP_FIELD] ?? '';
  if (!/^\d{1,12}$/.test(t) || Math.abs(now - Number(t)) > MD5_WINDOW_SECONDS)
    throw new ServiceError(ErrorCode.TIMESTAMP_OUT_OF_WINDOW);
}
