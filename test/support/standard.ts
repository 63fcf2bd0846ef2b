import { getRepositoryToken } from '@nestjs/typeorm';
import type { Response } from 'supertest';
import { Repository } from 'typeorm';
import { ErrorCode } from '../../sdk/src';
import { UNBIND_REFUSAL_REASONS } from '../../src/cards/rebinding-rules';
import { SESSION_ENDS } from '../../src/sessions/session-end';
import { Session } from '../../src/sessions/session.entity';
import { signedPost, SignOptions } from './signing';
import { TestApp } from './test-app';

/** `YYYY-MM-DD HH:MM:SS` (spec: standard success `data.expires_at`). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export const V3_LOGIN = '/api/legacy/v3/cards/login';
export const SDK_LOGIN = '/api/v1/cards/login';
export const CARD_HEARTBEAT = '/api/v1/cards/heartbeat';

/** Catalog codes (decisions §2): the official client's table, itself checked against the service's catalog. */
export const CODES = ErrorCode;

/** A response that can still be checked with `.expect(status)`, like a supertest request, saying the body when it fails. */
export class SettledRequest implements PromiseLike<Response> {
  constructor(private readonly result: Promise<Response>) {}

  then<A = Response, B = never>(
    onFulfilled?: ((value: Response) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ) {
    return this.result.then(onFulfilled, onRejected);
  }

  expect(status: number): SettledRequest {
    return new SettledRequest(
      this.result.then((res) => {
        if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
        return res;
      }),
    );
  }
}

/** A signed V3 login (form-encoded `app, kami, imei`). */
export function v3Login(t: TestApp, secret: string, body: Record<string, string>, options: SignOptions = {}) {
  return new SettledRequest(Promise.resolve(signedPost(t, V3_LOGIN, body, 'form', secret, options)));
}

/** A signed SDK card login (JSON `app, card_key, machine_id`). */
export function sdkLogin(t: TestApp, secret: string, body: Record<string, string>, options: SignOptions = {}) {
  return new SettledRequest(Promise.resolve(signedPost(t, SDK_LOGIN, body, 'json', secret, options)));
}

/** A card heartbeat: Bearer session token and JSON `{machine_id}`; no token header when `token` is null. */
export function cardHeartbeat(t: TestApp, token: string | null, machine: string) {
  const req = t.http().post(CARD_HEARTBEAT);
  if (token !== null) req.set('Authorization', `Bearer ${token}`);
  return req.send({ machine_id: machine });
}

export function sessionRepo(t: TestApp): Repository<Session> {
  return t.app.get<Repository<Session>>(getRepositoryToken(Session));
}

/**
 * Asserts the exact standard failure envelope `{code:N, success:false, msg, request_id}` (optionally
 * `details`) with its HTTP status; N is never a success code and request_id is the X-Request-Id header.
 */
export function expectStandardFailure(res: Response, httpStatus: number, code: number): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect({ http: res.status, code: res.body?.code, success: res.body?.success }).toEqual({
    http: httpStatus,
    code,
    success: false,
  });
  expect(code).not.toBe(0);
  expect(code).not.toBe(1);
  expect(typeof res.body.msg).toBe('string');
  expect(res.body.msg.length).toBeGreaterThan(0);
  expect(typeof res.headers['x-request-id']).toBe('string');
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
  const extra = Object.keys(res.body).filter((k) => !['code', 'success', 'msg', 'request_id', 'details', 'data'].includes(k));
  expect(extra).toEqual([]);
  expect(res.body).not.toHaveProperty('token');
  // Only an ended session's refusal (decisions §18) and a refused unbind (§21) say something in `data`: why and when.
  if (code === ErrorCode.UNBIND_REFUSED) {
    expectUnbindRefusalData(res.body.data);
  } else if (code === ErrorCode.SESSION_INVALID && res.body.data !== undefined) {
    const unknown = res.body.data.ended_by === 'unknown';
    expect(res.body.data).toEqual({
      ended_by: expect.any(String),
      ended_at: unknown ? null : expect.stringMatching(TIMESTAMP),
      ended_at_iso: unknown ? null : expect.stringMatching(ISO_TIME),
    });
    if (!unknown) expect(sameInstant(res.body.data.ended_at, res.body.data.ended_at_iso)).toBe(true);
    expect(SESSION_ENDS).toContain(res.body.data.ended_by);
  } else {
    expect(res.body).not.toHaveProperty('data');
  }
}

/** `YYYY-MM-DD HH:MM:SS` of an instant in a time zone, computed without the service's own helper. */
export function wallClock(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

/** ISO 8601 with the offset: the `<name>_iso` sibling of every client time (docs/protocol.md, "Times and zones"). */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/** Whether a spec time and its `_iso` sibling show the same wall time (so, with the offset, one instant). */
export function sameInstant(local: string, iso: string): boolean {
  return ISO_TIME.test(iso) && iso.slice(0, 19) === local.replace(' ', 'T');
}

/** The instant a `YYYY-MM-DD HH:MM:SS` string stands for, when the service time zone is UTC. */
export function parseUtcWallClock(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}

/** A refused unbind's `data` (decisions §21): the reason, and when to retry where waiting helps. */
export function expectUnbindRefusalData(data: unknown): void {
  expect(Object.keys(data as object).sort()).toEqual(['reason', 'retry_at', 'retry_at_iso']);
  const { reason, retry_at, retry_at_iso } = data as { reason: string; retry_at: string | null; retry_at_iso: string | null };
  expect(UNBIND_REFUSAL_REASONS).toContain(reason);
  expect(retry_at_iso === null).toBe(retry_at === null);
  if (retry_at !== null) expect(retry_at).toMatch(TIMESTAMP);
  if (retry_at !== null) expect(sameInstant(retry_at, retry_at_iso!)).toBe(true);
  if (reason === 'disabled' || reason === 'not_bound') expect(retry_at).toBeNull();
  if (reason === 'cooldown') expect(retry_at).not.toBeNull();
}
