import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  chooseRequestId,
  onFault,
  requestContextMiddleware,
  requestContextOf,
  requestIdOf,
  undoAfterFault,
} from './request-context';

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
  it('echoes a valid incoming id in X-Request-Id, keeps it on the request, then calls next()', () => {
    const { req, res, setHeader } = fakeExchange({ 'x-request-id': 'client-req-0001' });
    const next = jest.fn();
    requestContextMiddleware()(req, res, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(setHeader).toHaveBeenCalledWith('X-Request-Id', 'client-req-0001');
    expect(requestIdOf(req)).toBe('client-req-0001');
  });

  it('generates an id for a bad incoming one and uses the same id everywhere', () => {
    const { req, res, setHeader } = fakeExchange({ 'x-request-id': 'x' });
    requestContextMiddleware()(req, res, () => undefined);
    const id = requestIdOf(req);
    expect(id).toMatch(GENERATED);
    expect(setHeader).toHaveBeenCalledWith('X-Request-Id', id);
    expect(requestIdOf({ raw: req })).toBe(id);
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

  it('keeps concurrent requests apart: each has its own context', () => {
    const a = fakeExchange({ 'x-request-id': 'request-aaaa' });
    const b = fakeExchange({ 'x-request-id': 'request-bbbb' });
    requestContextMiddleware()(a.req, a.res, () => {
      requestContextMiddleware()(b.req, b.res, () => undefined);
    });
    expect([requestIdOf(a.req), requestIdOf(b.req)]).toEqual(['request-aaaa', 'request-bbbb']);
    expect(requestContextOf(a.req)).not.toBe(requestContextOf(b.req));
  });
});

describe('per-request state', () => {
  const contextOf = (id: string) => {
    const { req, res } = fakeExchange({ 'x-request-id': id });
    requestContextMiddleware()(req, res, () => undefined);
    return { req, context: requestContextOf(req) };
  };

  it('undoes what a request registered on a fault, once, and nothing of another request', async () => {
    const a = contextOf('request-aaaa');
    const b = contextOf('request-bbbb');
    const undone: string[] = [];
    onFault(a.context, async () => void undone.push('a'));
    onFault(b.context, async () => void undone.push('b'));
    onFault(undefined, async () => void undone.push('outside'));
    await undoAfterFault(a.req);
    await undoAfterFault(a.req);
    expect(undone).toEqual(['a']);
  });
});
