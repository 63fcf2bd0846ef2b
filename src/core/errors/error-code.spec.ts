import { ERROR_CATALOG, ErrorCode } from './error-code';
import { ServiceError } from './service-error';

const ALL_CODES = Object.values(ErrorCode).filter((v): v is ErrorCode => typeof v === 'number');

/** The table of decisions.md §2 (and §16's DEVICE_NOT_BOUND): code, name, HTTP status. */
const DECIDED: ReadonlyArray<[number, string, number]> = [
  [10001, 'BAD_REQUEST', 400],
  [10002, 'METHOD_NOT_ALLOWED', 405],
  [10003, 'CIPHERTEXT_NOT_ALLOWED', 400],
  [10004, 'APP_REQUIRED', 400],
  [10005, 'INTERNAL_KEY_NOT_ACCEPTED', 400],
  [10101, 'SIGNATURE_INVALID', 401],
  [10102, 'TIMESTAMP_OUT_OF_WINDOW', 401],
  [10103, 'NONCE_REPLAYED', 409],
  [10201, 'PROGRAM_NOT_FOUND', 404],
  [10202, 'PROGRAM_DISABLED', 403],
  [10203, 'AUTHOR_DISABLED', 403],
  [10204, 'VERIFICATION_SWITCH_OFF', 403],
  [10205, 'PACKAGE_NOT_ENABLED', 403],
  [10206, 'INTERFACE_NOT_AUTHORIZED', 403],
  [10207, 'INTERFACE_DISABLED', 403],
  [10208, 'CONNECT_NOT_ENABLED', 403],
  [10301, 'QUOTA_EXCEEDED', 429],
  [10302, 'RATE_LIMITED', 429],
  [20001, 'CARD_INVALID', 200],
  [20002, 'CARD_EXPIRED', 200],
  [20003, 'CARD_BANNED', 200],
  [20004, 'DEVICE_LIMIT_REACHED', 200],
  [20005, 'UNBIND_REFUSED', 200],
  [20009, 'CHECKOUT_DISABLED', 200], // decisions §15
  [20010, 'DEVICE_NOT_BOUND', 200], // decisions §16
  [20011, 'TRIAL_USED', 200], // decisions §21
  [30001, 'USERNAME_TAKEN', 200],
  [30002, 'BAD_CREDENTIALS', 200],
  [30003, 'USER_BANNED', 200],
  [30004, 'MACHINE_MISMATCH', 200],
  [30101, 'SESSION_INVALID', 401],
  [30102, 'SESSION_TYPE_MISMATCH', 401],
  [40001, 'SITE_NOT_AUTHORIZED', 200],
  [40002, 'BLACKLISTED', 403],
  [40003, 'IP_NOT_BOUND', 403],
  [50000, 'SYSTEM_ERROR', 500],
];

describe('error catalog', () => {
  it('has no code 0 or 1 and no negative code', () => {
    for (const code of ALL_CODES) expect(code).toBeGreaterThan(1);
  });

  it('has unique codes', () => {
    expect(new Set(ALL_CODES).size).toBe(ALL_CODES.length);
  });

  it('has an entry for exactly the enum members', () => {
    expect(Object.keys(ERROR_CATALOG).map(Number).sort()).toEqual([...ALL_CODES].sort());
  });

  it.each(ALL_CODES.map((c) => [ErrorCode[c], c] as const))('%s has a valid HTTP status and a message', (_name, code) => {
    const entry = ERROR_CATALOG[code];
    expect([200, 400, 401, 402, 403, 404, 405, 409, 413, 415, 429, 500, 502]).toContain(entry.http);
    expect(entry.message.trim().length).toBeGreaterThan(0);
  });

  it.each(DECIDED)('%i %s answers HTTP %i as decided', (code, name, http) => {
    expect(ErrorCode[name as keyof typeof ErrorCode]).toBe(code);
    expect(ERROR_CATALOG[code as ErrorCode].http).toBe(http);
    expect(new ServiceError(code as ErrorCode).httpStatus).toBe(http);
  });

  it('only SYSTEM_ERROR answers 500', () => {
    expect(ALL_CODES.filter((c) => ERROR_CATALOG[c].http === 500)).toEqual([ErrorCode.SYSTEM_ERROR]);
  });

  it('keeps the ranges of the admin API: 111xx one "not found" per resource (404), 112xx conflicts (409)', () => {
    for (const code of ALL_CODES.filter((c) => c >= 11100 && c < 11200)) {
      expect([ErrorCode[code], ERROR_CATALOG[code].http]).toEqual([expect.stringMatching(/_NOT_FOUND$/), 404]);
    }
    for (const code of ALL_CODES.filter((c) => c >= 11200 && c < 11300))
      expect([ErrorCode[code], ERROR_CATALOG[code].http]).toEqual([ErrorCode[code], 409]);
  });

  it('gives the service additions their HTTP class', () => {
    expect(ERROR_CATALOG[ErrorCode.NOT_FOUND].http).toBe(404);
    expect(ERROR_CATALOG[ErrorCode.UNSUPPORTED_MEDIA_TYPE].http).toBe(415);
    expect(ERROR_CATALOG[ErrorCode.PAYLOAD_TOO_LARGE].http).toBe(413);
    expect(ERROR_CATALOG[ErrorCode.UNAUTHENTICATED].http).toBe(401);
    expect(ERROR_CATALOG[ErrorCode.FORBIDDEN].http).toBe(403);
    expect(ERROR_CATALOG[ErrorCode.CONFLICT].http).toBe(409);
  });
});
