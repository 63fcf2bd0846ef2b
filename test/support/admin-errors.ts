import type { Response } from 'supertest';
import { ErrorCode } from '../../sdk/src';

/**
 * Asserts the admin failure envelope `{error: {code, message, details?}, request_id}` with the HTTP
 * status; when `field` is given, the details must name it, so the caller learns what was wrong.
 */
export function expectAdminError(res: Response, status: number, code: number, field?: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
  if (field !== undefined) {
    const details: unknown = res.body.error.details;
    expect(Array.isArray(details) ? details : [details]).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`\\b${field}\\b`))]),
    );
  }
}

export const { BAD_REQUEST, NOT_FOUND, UNAUTHENTICATED, FORBIDDEN, CONFLICT } = ErrorCode;

/** The admin API's own codes: one "not found" per resource, one code per conflict (docs/errors.md). */
export const {
  ACCOUNT_DISABLED,
  FILE_TOO_LARGE,
  PROJECT_NOT_FOUND,
  AUTHOR_NOT_FOUND,
  CARD_NOT_FOUND,
  CARD_DEVICE_NOT_FOUND,
  APP_USER_NOT_FOUND,
  ANNOUNCEMENT_NOT_FOUND,
  VERSION_NOT_FOUND,
  FILE_NOT_FOUND,
  SITE_NOT_FOUND,
  BLACKLIST_ENTRY_NOT_FOUND,
  VARIABLE_NOT_FOUND,
  INTERFACE_NOT_FOUND,
  SECRET_NOT_FOUND,
  AUTHOR_USERNAME_TAKEN,
  VERSION_EXISTS,
  VARIABLE_NAME_TAKEN,
  SITE_EXISTS,
  BLACKLIST_ENTRY_EXISTS,
  IDEMPOTENCY_KEY_REUSED,
  CONNECT_NOT_SELF_SERVICE,
  CARD_TYPE_NOT_FOUND,
  CARD_TYPE_NAME_TAKEN,
  CARD_TYPE_IN_USE,
  CARD_TYPE_DISABLED,
  WEBHOOK_NOT_FOUND,
  WEBHOOK_DELIVERY_NOT_FOUND,
  WEBHOOK_TARGET_REFUSED,
  API_KEY_SCOPE_MISSING,
  API_KEY_ADDRESS_REFUSED,
  API_KEY_NOT_ACCEPTED,
  API_KEY_NOT_FOUND,
} = ErrorCode;
