import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClientErrorCode, ErrorCode, Family, judge, RawAnswer } from '../src';

function answer(body: unknown, status = 200, headers: Record<string, string> = {}): RawAnswer {
  const all = new Map(Object.entries({ 'content-type': 'application/json', ...headers }));
  return {
    status,
    headers: { get: (name) => all.get(name.toLowerCase()) ?? null },
    text: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

describe('success rules', () => {
  const cases: Array<[Family, unknown, boolean]> = [
    ['connect', { status: true, code: 1, reason: 'ok', data: {} }, true],
    ['connect', { status: false, code: -20001, reason: 'no' }, false],
    ['connect', { status: 'true', code: 1, reason: 'ok' }, false],
    ['connect', { code: 0, reason: 'code 0 is never a Connect success' }, false],
    ['connect', { code: 1, reason: 'neither is code 1 without status' }, false],
    ['standard', { code: 0, success: true, msg: 'ok' }, true],
    ['standard', { code: 0, msg: 'ok' }, true],
    ['standard', { code: 1, msg: 'unbind answers 1' }, true],
    ['standard', { code: 20001, success: false, msg: 'no' }, false],
    ['standard', { code: 0, success: false, msg: 'success false wins' }, false],
    ['standard', { code: 20001, msg: 'no' }, false],
    ['legacy', { code: 1, msg: 'ok', data: {} }, true],
    ['legacy', { code: 0, msg: 'legacy success is code 1 only' }, false],
    ['legacy', { code: 20002, msg: 'expired' }, false],
  ];
  for (const [family, body, success] of cases) {
    it(`${family} ${JSON.stringify(body)} → ${success ? 'success' : 'failure'}`, () => {
      assert.equal(judge(family, answer(body)).success, success);
    });
  }
});

describe('route success codes (standard family)', () => {
  const cases: Array<[0 | 1, unknown, boolean]> = [
    [1, { code: 1, success: true, msg: 'Unbound' }, true],
    [1, { code: 1, msg: 'success absent: the code decides' }, true],
    [1, { code: 0, success: true, msg: 'code 0 is not the unbind success' }, false],
    [1, { code: 1, success: false, msg: 'success false wins' }, false],
    [1, { success: true, msg: 'no code' }, false],
    [1, { code: '1', success: true, msg: 'a string is not 1' }, false],
    [1, { code: 20005, success: false, msg: 'refused' }, false],
    [0, { code: 0, success: true, msg: 'ok' }, true],
    [0, { code: 1, success: true, msg: 'code 1 is not this route success' }, false],
    [0, { code: 20008, success: false, msg: 'refused' }, false],
  ];
  for (const [successCode, body, success] of cases) {
    it(`route code ${successCode}: ${JSON.stringify(body)} → ${success ? 'success' : 'failure'}`, () => {
      assert.equal(judge('standard', answer(body), {}, successCode).success, success);
    });
  }

  it('gives a refused success-looking answer UNEXPECTED_RESPONSE, never code 0 or 1', () => {
    const r = judge('standard', answer({ code: 0, success: true, msg: 'ok', data: { id: 1 } }), {}, 1);
    assert.deepEqual([r.success, r.code, r.data], [false, ClientErrorCode.UNEXPECTED_RESPONSE, undefined]);
    assert.match(r.message, /code 0 is neither this route's success nor a failure code/);
    assert.equal(judge('standard', answer({ code: 0, success: false, msg: 'x' })).code, ClientErrorCode.UNEXPECTED_RESPONSE);
    assert.equal(judge('legacy', answer({ code: 0, msg: 'x' })).code, ClientErrorCode.UNEXPECTED_RESPONSE);
  });

  it('keeps the catalog code and message of a refusal', () => {
    const r = judge(
      'standard',
      answer({ code: 20005, success: false, msg: 'Unbinding is not possible', request_id: 'q' }),
      {},
      1,
    );
    assert.deepEqual([r.code, r.message, r.requestId], [ErrorCode.UNBIND_REFUSED, 'Unbinding is not possible', 'q']);
  });

  it('gives an UNBIND_REFUSED its reason and retry time, in the standard and the legacy envelope (decisions §21)', () => {
    const cooldown = judge(
      'standard',
      answer({ code: 20005, success: false, msg: 'Too recently', data: { reason: 'cooldown', retry_at: '2026-11-24 08:15:00' } }),
      {},
      1,
    );
    assert.deepEqual(
      [cooldown.code, cooldown.unbindReason, cooldown.retryAt],
      [ErrorCode.UNBIND_REFUSED, 'cooldown', '2026-11-24 08:15:00'],
    );
    const notBound = judge('legacy', answer({ code: 20005, msg: 'Not bound', data: { reason: 'not_bound', retry_at: null } }));
    assert.deepEqual([notBound.unbindReason, notBound.retryAt], ['not_bound', null]);
    // An older service's refusal without data, and another code's data.reason, say nothing of an unbind.
    const bare = judge('standard', answer({ code: 20005, success: false, msg: 'Refused' }), {}, 1);
    assert.deepEqual([bare.unbindReason, bare.retryAt], [undefined, undefined]);
    const other = judge('standard', answer({ code: 20008, success: false, msg: 'No', data: { reason: 'limit' } }));
    assert.deepEqual([other.unbindReason, other.retryAt], [undefined, undefined]);
  });

  it('is a standard-family rule of 0 or 1 only', () => {
    assert.throws(() => judge('legacy', answer({ code: 1 }), {}, 1), /standard-family/);
    assert.throws(() => judge('connect', answer({ status: true }), {}, 0), /standard-family/);
    assert.throws(() => judge('standard', answer({ code: 2 }), {}, 2 as 0), /standard-family/);
  });
});

describe('results', () => {
  it('gives a Connect failure its positive catalog code, reason, request and error ids', () => {
    const r = judge(
      'connect',
      answer({ status: false, code: -50000, reason: 'System error', request_id: 'req-1', error_id: 'err-1' }, 500),
    );
    assert.deepEqual(
      {
        success: r.success,
        code: r.code,
        message: r.message,
        requestId: r.requestId,
        errorId: r.errorId,
        httpStatus: r.httpStatus,
      },
      {
        success: false,
        code: ErrorCode.SYSTEM_ERROR,
        message: 'System error',
        requestId: 'req-1',
        errorId: 'err-1',
        httpStatus: 500,
      },
    );
  });

  it('keeps unknown fields in data and body', () => {
    const r = judge(
      'standard',
      answer({ code: 0, success: true, msg: 'ok', token: 't', extra_top: 1, data: { id: 3, added_later: 'x' }, request_id: 'r' }),
    );
    assert.deepEqual(r.data, { id: 3, added_later: 'x' });
    assert.equal(r.body?.extra_top, 1);
    assert.equal(r.message, 'ok');
  });

  it("gives a success without a numeric code its family's success code", () => {
    assert.equal(judge('standard', answer({ success: true, msg: 'ok' })).code, 0);
    assert.equal(judge('connect', answer({ status: true, reason: 'ok' })).code, 1);
  });

  it('judges a legacy DEVICE_NOT_BOUND refusal (HTTP 200, e.g. /api/check from another device) a failure with its code', () => {
    const r = judge('legacy', answer({ code: 20010, msg: 'This device is not bound to the card', request_id: 'req-nb' }));
    assert.deepEqual([r.success, r.code, r.requestId, r.httpStatus], [false, ErrorCode.DEVICE_NOT_BOUND, 'req-nb', 200]);
  });

  it('takes the request id from the X-Request-Id header when the body has none', () => {
    assert.equal(
      judge('legacy', answer({ code: 20001, msg: 'no' }, 200, { 'x-request-id': 'from-header' })).requestId,
      'from-header',
    );
  });

  it('reads Retry-After', () => {
    const r = judge('standard', answer({ code: 10302, success: false, msg: 'slow down' }, 429, { 'retry-after': '7' }));
    assert.equal(r.code, ErrorCode.RATE_LIMITED);
    assert.equal(r.retryAfterSeconds, 7);
  });

  it('calls HTML, an empty body and a redirect an unexpected answer, never a success', () => {
    for (const a of [
      answer('<html>login</html>', 200, { 'content-type': 'text/html' }),
      answer('', 200),
      answer({ code: 0, success: true, msg: 'ok' }, 302, { location: '/elsewhere' }),
      answer('[1,2]', 200),
    ]) {
      for (const family of ['connect', 'standard', 'legacy'] as const) {
        const r = judge(family, a);
        assert.equal(r.success, false);
        assert.equal(r.code, ClientErrorCode.UNEXPECTED_RESPONSE);
        assert.match(r.message, /check the service address/);
      }
    }
  });

  it('reads a customized Connect answer through its field names', () => {
    const names = { status: 'ok', reason: 'text', data: 'payload', token: 'licence', expires_at: 'until' };
    const body = {
      ok: true,
      code: 1,
      text: 'welcome',
      payload: { licence: 'abc', until: '2027-01-01 00:00:00', device_limit: 2, extra: true },
      request_id: 'r',
    };
    const r = judge('connect', answer(body), names);
    assert.equal(r.success, true);
    assert.equal(r.message, 'welcome');
    assert.deepEqual(r.data, { token: 'abc', expires_at: '2027-01-01 00:00:00', device_limit: 2, extra: true });
    assert.deepEqual(r.body, body, 'body stays the answer as received');
    const failure = judge('connect', answer({ ok: false, code: -20002, text: 'expired', request_id: 'r' }), names);
    assert.deepEqual([failure.success, failure.code, failure.message], [false, ErrorCode.CARD_EXPIRED, 'expired']);
  });
});

describe("a card type's features (decisions §19)", () => {
  it('gives data.features of a successful card answer in every family, strings only, and nothing elsewhere', () => {
    const features = ['pro', 'export.pdf'];
    assert.deepEqual(
      judge('standard', answer({ code: 0, success: true, msg: 'ok', data: { id: 1, features } })).features,
      features,
    );
    assert.deepEqual(judge('legacy', answer({ code: 1, msg: 'ok', data: { features: [] } })).features, []);
    assert.deepEqual(judge('connect', answer({ status: true, code: 1, reason: 'ok', data: { features } })).features, features);
    assert.deepEqual(judge('standard', answer({ code: 0, msg: 'ok', data: { features: ['pro', 7, null] } })).features, ['pro']);
    assert.equal(
      judge('standard', answer({ code: 0, msg: 'ok', data: { id: 1 } })).features,
      undefined,
      'an older service says nothing',
    );
    assert.equal(
      judge('standard', answer({ code: 20001, msg: 'no', data: { features } })).features,
      undefined,
      'a refusal has none',
    );
  });
});

describe('a trial card (decisions §21)', () => {
  it('gives data.trial of a successful card answer in every family, booleans only, and nothing elsewhere', () => {
    assert.equal(judge('standard', answer({ code: 0, success: true, msg: 'ok', data: { id: 1, trial: true } })).trial, true);
    assert.equal(judge('legacy', answer({ code: 1, msg: 'ok', data: { trial: false } })).trial, false);
    assert.equal(judge('connect', answer({ status: true, code: 1, reason: 'ok', data: { trial: true } })).trial, true);
    assert.equal(judge('standard', answer({ code: 0, msg: 'ok', data: { trial: 'yes' } })).trial, undefined);
    assert.equal(
      judge('standard', answer({ code: 0, msg: 'ok', data: { id: 1 } })).trial,
      undefined,
      'an older service says nothing',
    );
    assert.equal(
      judge('standard', answer({ code: 20011, msg: 'no', data: { trial: true } })).trial,
      undefined,
      'a refusal has none',
    );
  });
});

describe('why a session ended (decisions §18)', () => {
  it('gives ended_by and ended_at of a heartbeat refusal, and nothing of other answers', () => {
    const banned = judge(
      'standard',
      answer({ code: 30101, success: false, msg: 'x', data: { ended_by: 'card_banned', ended_at: '2026-11-26 10:42:00' } }, 401),
    );
    assert.deepEqual(
      [banned.code, banned.endedBy, banned.endedAt],
      [ErrorCode.SESSION_INVALID, 'card_banned', '2026-11-26 10:42:00'],
    );
    const unknown = judge(
      'standard',
      answer({ code: 30101, success: false, msg: 'x', data: { ended_by: 'unknown', ended_at: null } }, 401),
    );
    assert.deepEqual([unknown.endedBy, unknown.endedAt], ['unknown', null]);
    const older = judge('standard', answer({ code: 30101, success: false, msg: 'x' }, 401));
    assert.equal(older.endedBy, undefined, 'a service without §18 says nothing');
    const beat = judge('standard', answer({ code: 0, success: true, msg: 'ok', data: { ended_by: 'card_banned' } }));
    assert.equal(beat.endedBy, undefined, 'a success never ends a session');
  });
});
