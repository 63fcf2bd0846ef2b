import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, ClientErrorCode, ErrorCode, FetchLike, hmacSignature } from '../src';
import { connectionRefused, fakeService, SeenRequest } from './fake-service';

const BASE = 'http://licence.test';
const options = (fetch: FetchLike) => ({ baseUrl: BASE, programId: '48213907', apiSecret: 'api-secret', fetch, retryDelayMs: 1 });
const standard = (code: number, data: Record<string, unknown>, success = true) => ({
  json: { code, success, msg: 'ok', data, request_id: 'r' },
});
const refusal = (code: number, msg: string) => ({ json: { code, success: false, msg, request_id: 'r-refused' } });

const topped = { id: 7, code: 'CK', kind: 'time', status: 'active', expires_at: '2027-02-01 00:00:00', uses_left: null };
const info = {
  kind: 'count',
  status: 'active',
  activated_at: '2026-11-01 10:00:00',
  expires_at: null,
  uses_left: 41,
  device_limit: 2,
  concurrent_limit: 1,
  devices: [{ machine_code: 'PC-1', bound_at: '2026-11-01 10:00:00', last_login_at: '2026-11-20 08:00:00' }],
  unbind: { enabled: true, deduct_seconds: 3600, remaining: null },
  added_later: 'kept',
};
const unbound = { id: 7, code: 'CK', machine_code: 'PC-1', expires_at: '2027-01-01 00:00:00', unbind_count: 1 };

/** The request is a POST of exactly these JSON fields to this path, signed with the api_secret. */
function assertSignedJson(request: SeenRequest, path: string, fields: Record<string, unknown>): void {
  assert.equal(request.method, 'POST');
  assert.equal(request.url, `${BASE}${path}`);
  assert.equal(request.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(request.body), fields);
  const h = request.headers;
  assert.match(h['X-Svc-Nonce'], /^[A-Za-z0-9_.:-]{8,96}$/);
  assert.equal(
    h['X-Svc-Signature'],
    hmacSignature('api-secret', {
      method: 'POST',
      path,
      timestamp: h['X-Svc-Timestamp'],
      nonce: h['X-Svc-Nonce'],
      body: request.body,
    }),
  );
}

describe('card top-up (decisions §13)', () => {
  it('signs {app, card_key, topup_key} and answers the renewed card', async () => {
    const service = fakeService(standard(0, topped));
    const r = await new Client(options(service.fetch)).cardTopup({ cardKey: 'CK', topupKey: 'TOP-1' });
    assert.deepEqual([r.success, r.code, r.data], [true, 0, topped]);
    assertSignedJson(service.seen[0], '/api/v1/cards/topup', { app: '48213907', card_key: 'CK', topup_key: 'TOP-1' });
  });

  it('gives TOPUP_REFUSED with the reason, and CARD_INVALID by name', async () => {
    const service = fakeService(
      refusal(20008, 'The top-up card is a count card; this card is a time card'),
      refusal(20001, 'The card key is invalid'),
    );
    const client = new Client(options(service.fetch));
    const refused = await client.cardTopup({ cardKey: 'CK', topupKey: 'TOP-1' });
    assert.deepEqual(
      [refused.success, refused.code, refused.message, refused.requestId],
      [false, ErrorCode.TOPUP_REFUSED, 'The top-up card is a count card; this card is a time card', 'r-refused'],
    );
    assert.equal((await client.cardTopup({ cardKey: 'NOPE', topupKey: 'TOP-1' })).code, ErrorCode.CARD_INVALID);
  });

  it('is a success only with code 0, and is never retried (a repeat would find the top-up card consumed)', async () => {
    const service = fakeService(standard(1, topped), connectionRefused());
    const client = new Client(options(service.fetch));
    const one = await client.cardTopup({ cardKey: 'CK', topupKey: 'TOP-1' });
    assert.deepEqual([one.success, one.code], [false, ClientErrorCode.UNEXPECTED_RESPONSE]);
    assert.equal((await client.cardTopup({ cardKey: 'CK', topupKey: 'TOP-1' })).code, ClientErrorCode.NETWORK_ERROR);
    assert.equal(service.seen.length, 2);
  });
});

describe('card info (decisions §14)', () => {
  it('signs {app, card_key} and reads state, devices and unbind rules, unknown fields kept', async () => {
    const service = fakeService(standard(0, info));
    const r = await new Client(options(service.fetch)).cardInfo({ cardKey: 'CK' });
    assert.equal(r.success, true);
    assert.deepEqual(r.data, info);
    assert.equal(r.data?.devices[0].last_login_at, '2026-11-20 08:00:00');
    assert.equal(r.data?.unbind.remaining, null);
    assertSignedJson(service.seen[0], '/api/v1/cards/info', { app: '48213907', card_key: 'CK' });
  });

  it('is retried after a network failure, signed afresh', async () => {
    const service = fakeService(connectionRefused(), standard(0, info));
    assert.equal((await new Client(options(service.fetch)).cardInfo({ cardKey: 'CK' })).success, true);
    assert.equal(service.seen.length, 2);
    assert.notEqual(service.seen[0].headers['X-Svc-Nonce'], service.seen[1].headers['X-Svc-Nonce']);
    for (const request of service.seen) assertSignedJson(request, '/api/v1/cards/info', { app: '48213907', card_key: 'CK' });
  });

  it('gives the catalog code of a refusal, and never takes code 1 for its success', async () => {
    const service = fakeService(refusal(20001, 'The card key is invalid'), standard(1, info));
    const client = new Client(options(service.fetch));
    assert.equal((await client.cardInfo({ cardKey: 'NOPE' })).code, ErrorCode.CARD_INVALID);
    assert.equal((await client.cardInfo({ cardKey: 'CK' })).success, false);
  });
});

describe('self-service unbind (decisions §14)', () => {
  it('signs {app, card_key, machine_id}; its success is code 1 with success true', async () => {
    const service = fakeService({ json: { code: 1, success: true, msg: 'Unbound', data: unbound, request_id: 'r' } });
    const r = await new Client(options(service.fetch)).cardUnbind({ cardKey: 'CK', machineId: 'PC-1' });
    assert.deepEqual([r.success, r.code, r.message, r.data], [true, 1, 'Unbound', unbound]);
    assertSignedJson(service.seen[0], '/api/v1/cards/unbind', { app: '48213907', card_key: 'CK', machine_id: 'PC-1' });
  });

  it('takes no other answer for a success: code 0, code 1 with success false, success without code', async () => {
    for (const body of [
      { code: 0, success: true, msg: 'ok', data: unbound },
      { code: 1, success: false, msg: 'contradiction', data: unbound },
      { success: true, msg: 'no code', data: unbound },
    ]) {
      const service = fakeService({ json: body });
      const r = await new Client(options(service.fetch)).cardUnbind({ cardKey: 'CK', machineId: 'PC-1' });
      assert.deepEqual(
        [r.success, r.code, r.data],
        [false, ClientErrorCode.UNEXPECTED_RESPONSE, undefined],
        JSON.stringify(body),
      );
    }
  });

  it('gives UNBIND_REFUSED and the card refusals by name', async () => {
    const service = fakeService(
      refusal(20005, 'Unbinding is not possible for this card and device'),
      refusal(20003, 'The card key is banned'),
    );
    const client = new Client(options(service.fetch));
    const refused = await client.cardUnbind({ cardKey: 'CK', machineId: 'PC-9' });
    assert.deepEqual(
      [refused.success, refused.code, refused.message],
      [false, ErrorCode.UNBIND_REFUSED, 'Unbinding is not possible for this card and device'],
    );
    assert.equal((await client.cardUnbind({ cardKey: 'CK', machineId: 'PC-1' })).code, ErrorCode.CARD_BANNED);
  });

  it('says why an unbind was refused and when it becomes possible', async () => {
    const limit = {
      json: {
        code: 20005,
        success: false,
        msg: 'Unbind limit reached',
        data: { reason: 'limit', retry_at: '2026-12-01 10:00:00' },
        request_id: 'r-limit',
      },
    };
    const disabled = {
      json: {
        code: 20005,
        success: false,
        msg: 'Unbinding is off',
        data: { reason: 'disabled', retry_at: null },
        request_id: 'r-off',
      },
    };
    const client = new Client(options(fakeService(limit, disabled).fetch));
    const first = await client.cardUnbind({ cardKey: 'CK', machineId: 'PC-1' });
    assert.deepEqual(
      [first.success, first.code, first.unbindReason, first.retryAt],
      [false, ErrorCode.UNBIND_REFUSED, 'limit', '2026-12-01 10:00:00'],
    );
    const second = await client.cardUnbind({ cardKey: 'CK', machineId: 'PC-1' });
    assert.deepEqual([second.unbindReason, second.retryAt], ['disabled', null]);
  });

  it('is never retried: each unbind may deduct time', async () => {
    const service = fakeService(connectionRefused());
    assert.equal(
      (await new Client(options(service.fetch)).cardUnbind({ cardKey: 'CK', machineId: 'PC-1' })).code,
      ClientErrorCode.NETWORK_ERROR,
    );
    assert.equal(service.seen.length, 1);
  });

  it('leaves the generic standard rule of the other routes as it was', async () => {
    // The SDK login keeps "success, or where it is absent code 0 or 1": the unbind rule is its own route's.
    const service = fakeService({
      json: { code: 1, msg: 'ok', data: { machine_code: 'PC-1', session_token: 's', session_expires_at: 'x' } },
    });
    assert.equal((await new Client(options(service.fetch)).cardLogin({ cardKey: 'CK', machineId: 'PC-1' })).success, true);
  });
});

describe('the codes of §13', () => {
  it('are in the catalog under their names', () => {
    assert.deepEqual([ErrorCode.CARD_NO_USES_LEFT, ErrorCode.SEATS_FULL, ErrorCode.TOPUP_REFUSED], [20006, 20007, 20008]);
  });

  for (const [code, msg] of [
    [ErrorCode.CARD_NO_USES_LEFT, 'The card has no uses left'],
    [ErrorCode.SEATS_FULL, 'Every seat of this card is in use'],
  ] as const) {
    it(`a card login refused with ${code} is a failure with that code and holds no session`, async () => {
      const service = fakeService(refusal(code, msg));
      const client = new Client(options(service.fetch));
      const r = await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
      assert.deepEqual([r.success, r.code, r.message], [false, code, msg]);
      assert.equal(client.session, undefined);
    });
  }
});

describe('trial (decisions §21)', () => {
  const trialCard = {
    code: 'TRIAL-1',
    expires_at: '2027-01-01 00:00:00',
    machine_code: 'PC-1',
    trial: true,
    features: ['basic'],
  };

  it('signs {app, machine_id} and answers the bound trial card, trial and features exposed', async () => {
    const service = fakeService(standard(0, trialCard));
    const r = await new Client(options(service.fetch)).cardTrial({ machineId: 'PC-1' });
    assert.deepEqual([r.success, r.code, r.data, r.trial, r.features], [true, 0, trialCard, true, ['basic']]);
    assertSignedJson(service.seen[0], '/api/v1/cards/trial', { app: '48213907', machine_id: 'PC-1' });
  });

  it('gives TRIAL_USED by name, refuses an answer for another device, and retries a lost answer (a repeat answers the same card)', async () => {
    const service = fakeService(
      refusal(20011, 'This device has already used its trial'),
      standard(0, { ...trialCard, machine_code: 'PC-2' }),
      connectionRefused(),
      standard(0, trialCard),
    );
    const client = new Client(options(service.fetch));
    assert.deepEqual([(await client.cardTrial({ machineId: 'PC-1' })).code, ErrorCode.TRIAL_USED], [20011, 20011]);
    const relayed = await client.cardTrial({ machineId: 'PC-1' });
    assert.deepEqual([relayed.success, relayed.code], [false, ClientErrorCode.UNTRUSTED_RESPONSE]);
    assert.equal((await client.cardTrial({ machineId: 'PC-1' })).success, true);
    assert.equal(service.seen.length, 4);
  });
});
