import { Secret, TOTP } from 'otpauth';

/** RFC 6238 with the parameters every authenticator app understands: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step of clock drift either way: a code is good for up to 90 seconds around its own step. */
const WINDOW = 1;
const ISSUER = 'Cardkey';

function totp(secretBase32: string, label = 'admin'): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret (RFC 4226's recommended length), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` address a QR code carries to the app. */
export function totpUri(secretBase32: string, username: string): string {
  return totp(secretBase32, username).toString();
}

/**
 * The time step a code belongs to (within the drift window), or null: the caller then accepts it
 * only if that step is later than the last one accepted, so no code is accepted twice.
 */
export function matchingStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
}
