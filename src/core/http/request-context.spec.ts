import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseRequestId, currentRequestId, requestContextMiddleware, requestContextOf, requestIdOf } from './request-context';

const GENERATED = /^[0-9a-f]{32}$/;

function fakeExchange(headers: Record<string, unknown>) {
  const res = { setHeader: jest.fn() };
  const req = { headers };
  return { req: req as unknown as IncomingMessage, res: res as unknown as ServerResponse, setHeader: res.setHeader };
}

describe('chooseRequestId', () => {
  it.each([
    ['8 characters', 'abcd1234'],
    ['64 characters', 'a'.repeat(64)],
    ['every allowed symbol', 'Az09_.:-Az09'],
    ['a UUID', '0b9f9c1e-6a47-4f58-9a53-3b6a2c1d9e10'],
  ])('keeps %s', (_name, id) => {
    expect(chooseRequestId(id)).toBe(id);
  });

  it.each([
    ['7 characters', 'abc1234'],
    ['65 characters', 'a'.repeat(65)],
    ['a space', 'abcd 1234'],
    ['a slash', 'abcd/1234'],
    ['a newline (header injection)', 'abcd1234\r\nSet-Cookie: x=1'],
    ['non-ASCII', 'abcdé1234'],
    ['an empty string', ''],
    ['an array', ['abcd1234', 'efgh5678']],
    ['a number', 12345678],
    ['undefined', undefined],
    ['null', null],
    ['an object', { toString: () => 'abcd1234' }],
  ])('replaces %s with a generated id', (_name, incoming) => {
    const id = chooseRequestId(incoming);
    expect(id).toMatch(GENERATED);
    expect(id).not.toBe(incoming);
  });

  it('generates a fresh id each time', () => {
    const ids = new Set(Array.from({ length: 50 }, () => chooseRequestId(undefined)));
    expect(ids.size).toBe(50);
  });

  it('generates ids that a later hop would keep', () => {
    const id = chooseRequestId('bad id');
    expect(chooseRequestId(id)).toBe(id);
  });
});

describe('requestContextMiddleware', () => {
  it('echoes a valid incoming id in X-Request-Id and exposes it inside next()', () => {
    const { req, res, setHeader } = fakeExchange({ 'x-request-id': 'client-req-0001' });
    let seen: string | undefined;
    requestContextMiddleware()(req, res, () => {
      seen = currentRequestId();
    });
    expect(setHeader).toHaveBeenCalledWith('X-Request-Id', 'client-req-0001');
    expect(seen).toBe('client-req-0001');
    expect(requestIdOf(req)).toBe('client-req-0001');
  });

  it('generates an id for a bad incoming one and uses the same id everywhere', () => {
    const { req, res, setHeader } = fakeExchange({ 'x-request-id': 'x' });
    let seen: string | undefined;
    requestContextMiddleware()(req, res, () => {
      seen = currentRequestId();
    });
    expect(seen).toMatch(GENERATED);
    expect(setHeader).toHaveBeenCalledWith('X-Request-Id', seen);
    expect(requestIdOf(req)).toBe(seen);
    expect(requestIdOf({ raw: req })).toBe(seen);
  });

  it('keeps the id visible across awaits inside next()', async () => {
    const { req, res } = fakeExchange({ 'x-request-id': 'async-req-0001' });
    const seen = await new Promise<string | undefined>((resolve) =>
      requestContextMiddleware()(req, res, () => {
        void (async () => {
          await new Promise((r) => setTimeout(r, 1));
          resolve(currentRequestId());
        })();
      }),
    );
    expect(seen).toBe('async-req-0001');
  });

  it('settles the client address, believing X-Forwarded-For only from a trusted proxy', () => {
    const viaProxy = { headers: { 'x-forwarded-for': '198.51.100.9' }, socket: { remoteAddress: '10.0.0.1' } };
    const direct = { headers: { 'x-forwarded-for': '198.51.100.9' }, socket: { remoteAddress: '203.0.113.7' } };
    const res = { setHeader: jest.fn() } as unknown as ServerResponse;
    const middleware = requestContextMiddleware(new Set(['10.0.0.1']));
    middleware(viaProxy as unknown as IncomingMessage, res, () => undefined);
    middleware(direct as unknown as IncomingMessage, res, () => undefined);
    expect(requestContextOf(viaProxy).clientIp).toBe('198.51.100.9');
    expect(requestContextOf(direct).clientIp).toBe('203.0.113.7');
  });

  it('keeps concurrent requests apart and leaks nothing outside next()', () => {
    const a = fakeExchange({ 'x-request-id': 'request-aaaa' });
    const b = fakeExchange({ 'x-request-id': 'request-bbbb' });
    const seen: Array<string | undefined> = [];
    requestContextMiddleware()(a.req, a.res, () => {
      requestContextMiddleware()(b.req, b.res, () => seen.push(currentRequestId()));
      seen.push(currentRequestId());
    });
    expect(seen).toEqual(['request-bbbb', 'request-aaaa']);
    expect(currentRequestId()).toBeUndefined();
  });
});
