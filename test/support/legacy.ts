import type { Response } from 'supertest';
import { ErrorCode, md5Sign } from '../../sdk/src';
import { expectUnbindRefusalData } from './standard';

/** Legacy fields with `t` (Unix seconds) and their MD5 `sign` (docs/protocol.md), as an old client sends them. */
export function md5Signed(
  fields: Record<string, string>,
  secret: string,
  t = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const withT = { ...fields, t: String(t) };
  return { ...withT, sign: md5Sign(withT, secret) };
}

/** The exact legacy failure envelope `{code:N, msg, request_id}` (plus `details` on BAD_REQUEST) with its HTTP status. */
export function expectLegacyFailure(res: Response, httpStatus: number, code: number): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const { details: _details, ...body } = res.body ?? {};
  // A refused unbind says why and when in `data` (decisions §21).
  const data = code === ErrorCode.UNBIND_REFUSED ? { data: expect.anything() } : {};
  expect({ http: res.status, body }).toStrictEqual({
    http: httpStatus,
    body: { code, msg: expect.any(String), ...data, request_id: res.headers['x-request-id'] },
  });
  if (code === ErrorCode.UNBIND_REFUSED) expectUnbindRefusalData(res.body.data);
}
