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
