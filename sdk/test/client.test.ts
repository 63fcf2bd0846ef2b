import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Client, ClientErrorCode, ErrorCode, FetchLike, hmacSignature, md5Sign, Result } from '../src';
import { connectionRefused, fakeService, SeenRequest } from './fake-service';

const BASE = 'http://licence.test';
const options = (fetch: FetchLike) => ({
  baseUrl: BASE,
  programId: '48213907',
  apiSecret: 'api-secret',
  legacySecret: 'legacy-secret',
  fetch,
  retryDelayMs: 1,
});

const standardOk = (data: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
  json: { ...top, code: 0, success: true, msg: 'ok', data, request_id: 'r' },
});
const standardFailure = (code: number, status = 200) => ({
  status,
  json: { code, success: false, msg: `failure ${code}`, request_id: 'r' },
});
const cardSession = {
  id: 7,
  code: 'CK',
  machine_code: 'PC-1',
  expires_at: '2027-01-01 00:00:00',
  session_token: 'sess-1',
  session_expires_at: '2026-11-22 16:00:00',
  heartbeat_interval_seconds: 30,
};
const heartbeatOk = standardOk({ card_id: 7, session_expires_at: '2026-11-22 16:10:00', server_time: 1 });

function verifiesHmac(request: SeenRequest, path: string): void {
  const h = request.headers;
  const expected = hmacSignature('api-secret', {
    method: 'POST',
    path,
    timestamp: h['X-Svc-Timestamp'],
    nonce: h['X-Svc-Nonce'],
    body: request.body,
  });
  assert.equal(h['X-Svc-Signature'], expected);
}

describe('SDK card login and heartbeat', () => {
  it('signs {app, card_key, machine_id}, holds the session and heartbeats with it', async () => {
    const service = fakeService(standardOk(cardSession, { token: 'compat', statecode: 'active' }), heartbeatOk);
    const client = new Client(options(service.fetch));
    const login = await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    assert.equal(login.success, true);
    assert.equal(login.data?.token, 'compat');
    assert.equal(login.data?.statecode, 'active');
    const [sent] = service.seen;
    assert.equal(sent.url, `${BASE}/api/v1/cards/login`);
    assert.deepEqual(JSON.parse(sent.body), { app: '48213907', card_key: 'CK', machine_id: 'PC-1' });
    assert.equal(sent.headers['Content-Type'], 'application/json');
    verifiesHmac(sent, '/api/v1/cards/login');
    assert.deepEqual(client.session, {
      type: 'card',
      token: 'sess-1',
      machineId: 'PC-1',
      expiresAt: '2026-11-22 16:00:00',
      heartbeatIntervalSeconds: 30,
      cardId: 7,
    });

    const beat = await client.cardHeartbeat();
    assert.equal(beat.success, true);
    assert.equal(service.seen[1].url, `${BASE}/api/v1/cards/heartbeat`);
    assert.equal(service.seen[1].headers.Authorization, 'Bearer sess-1');
    assert.deepEqual(JSON.parse(service.seen[1].body), { machine_id: 'PC-1' });
    assert.equal(client.session?.expiresAt, '2026-11-22 16:10:00');
  });

  it('holds no session after a failed login and answers NO_SESSION to a heartbeat without sending it', async () => {
    const service = fakeService(standardFailure(ErrorCode.CARD_EXPIRED));
    const client = new Client(options(service.fetch));
    const login = await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    assert.deepEqual(
      [login.success, login.code, login.message],
      [false, ErrorCode.CARD_EXPIRED, `failure ${ErrorCode.CARD_EXPIRED}`],
    );
    assert.equal(client.session, undefined);
    const beat = await client.cardHeartbeat();
    assert.equal(beat.code, ClientErrorCode.NO_SESSION);
    assert.equal(service.seen.length, 1);
  });

  for (const code of [ErrorCode.SESSION_INVALID, ErrorCode.SESSION_TYPE_MISMATCH]) {
    it(`clears the session when a heartbeat answers ${code}`, async () => {
      const service = fakeService(standardOk(cardSession), standardFailure(code, 401));
      const client = new Client(options(service.fetch));
      await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
      assert.equal((await client.cardHeartbeat()).code, code);
      assert.equal(client.session, undefined);
    });
  }

  it('keeps the session through other heartbeat failures', async () => {
    const service = fakeService(standardOk(cardSession), standardFailure(ErrorCode.QUOTA_EXCEEDED, 429));
    const client = new Client(options(service.fetch));
    await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    assert.equal((await client.cardHeartbeat()).code, ErrorCode.QUOTA_EXCEEDED);
    assert.equal(client.session?.token, 'sess-1');
  });

  it('takes up a restored session and heartbeats with it', async () => {
    const service = fakeService(heartbeatOk);
    const client = new Client(options(service.fetch));
    client.restoreSession({ type: 'card', token: 'kept', machineId: 'PC-9', expiresAt: 'x' });
    assert.equal((await client.cardHeartbeat()).success, true);
    assert.equal(service.seen[0].headers.Authorization, 'Bearer kept');
    assert.deepEqual(JSON.parse(service.seen[0].body), { machine_id: 'PC-9' });
    assert.throws(() => client.restoreSession({ type: 'card', token: '', machineId: 'm', expiresAt: 'x' }), /session.token/);
  });

  it('does not heartbeat a user session as a card session', async () => {
    const service = fakeService(standardOk({ profile: {}, session_token: 'u', session_expires_at: 'x', machine_id: 'PC-1' }));
    const client = new Client(options(service.fetch));
    await client.userLogin({ username: 'alice', password: 'secret-1', machineId: 'PC-1' });
    assert.equal((await client.cardHeartbeat()).code, ClientErrorCode.NO_SESSION);
    assert.equal(client.session?.type, 'app_user');
  });
});

describe('heartbeat loop', () => {
  it('beats until the session ends, then clears it, stops and calls onSessionEnded once', async () => {
    const service = fakeService(
      standardOk(cardSession),
      heartbeatOk,
      heartbeatOk,
      standardFailure(ErrorCode.SESSION_INVALID, 401),
    );
    const client = new Client(options(service.fetch));
    await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    const beats: Result[] = [];
    const ended: Result[] = [];
    const loop = client.startHeartbeat({ intervalMs: 5, onBeat: (r) => beats.push(r), onSessionEnded: (r) => ended.push(r) });
    for (let i = 0; i < 200 && loop.running; i += 1) await sleep(5);
    await sleep(30);
    assert.equal(loop.running, false);
    assert.equal(beats.length, 2);
    assert.deepEqual(
      ended.map((r) => r.code),
      [ErrorCode.SESSION_INVALID],
    );
    assert.equal(client.session, undefined);
    assert.equal(service.seen.length, 4, 'no heartbeat after the session ended');
  });

  it('ends when a direct heartbeat call meets the end of the session', async () => {
    const service = fakeService(standardOk(cardSession), standardFailure(ErrorCode.SESSION_INVALID, 401));
    const client = new Client(options(service.fetch));
    await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    const ended: number[] = [];
    const loop = client.startHeartbeat({ intervalMs: 60_000, onSessionEnded: (r) => ended.push(r.code) });
    assert.equal((await client.cardHeartbeat()).code, ErrorCode.SESSION_INVALID);
    assert.equal(loop.running, false);
    assert.deepEqual(ended, [ErrorCode.SESSION_INVALID]);
  });

  it('goes on through other failures, reporting them to onError', async () => {
    const service = fakeService(
      standardOk(cardSession),
      standardFailure(ErrorCode.SYSTEM_ERROR, 500),
      connectionRefused(),
      heartbeatOk,
    );
    const client = new Client({ ...options(service.fetch), retries: 0 });
    await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    const errors: number[] = [];
    let beats = 0;
    const loop = client.startHeartbeat({ intervalMs: 5, onError: (r) => errors.push(r.code), onBeat: () => (beats += 1) });
    for (let i = 0; i < 200 && beats === 0; i += 1) await sleep(5);
    loop.stop();
    assert.deepEqual(errors, [ErrorCode.SYSTEM_ERROR, ClientErrorCode.NETWORK_ERROR]);
    assert.equal(beats, 1);
    assert.equal(client.session?.token, 'sess-1');
  });

  it('stops when the client clears its session, and needs a session to start', async () => {
    const service = fakeService(standardOk(cardSession), heartbeatOk);
    const client = new Client(options(service.fetch));
    assert.throws(() => client.startHeartbeat(), /log in/);
    await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    const loop = client.startHeartbeat({ intervalMs: 5 });
    client.clearSession();
    await sleep(30);
    assert.equal(loop.running, false);
    assert.equal(service.seen.length, 1);
  });

  it('defaults to the interval the login answer gave', async () => {
    const service = fakeService(standardOk({ ...cardSession, heartbeat_interval_seconds: 1 }), heartbeatOk);
    const client = new Client(options(service.fetch));
    await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    const loop = client.startHeartbeat();
    await sleep(400);
    assert.equal(service.seen.length, 1, 'no beat before the interval');
    await sleep(900);
    loop.stop();
    assert.equal(service.seen.length, 2);
  });
});

describe('retries', () => {
  it('retries a network failure of an idempotent call, signing each attempt afresh', async () => {
    const service = fakeService(connectionRefused(), connectionRefused(), standardOk(cardSession));
    const client = new Client(options(service.fetch));
    const login = await client.cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    assert.equal(login.success, true);
    assert.equal(service.seen.length, 3);
    const nonces = new Set(service.seen.map((r) => r.headers['X-Svc-Nonce']));
    assert.equal(nonces.size, 3);
    for (const request of service.seen) verifiesHmac(request, '/api/v1/cards/login');
  });

  it('gives NETWORK_ERROR after the last attempt', async () => {
    const service = fakeService(connectionRefused());
    const client = new Client({ ...options(service.fetch), retries: 3 });
    const r = await client.checkVersion({ version: '1.0.0' });
    assert.deepEqual([r.success, r.code], [false, ClientErrorCode.NETWORK_ERROR]);
    assert.match(r.message, /ECONNREFUSED/);
    assert.equal(service.seen.length, 4);
  });

  it('retries a gateway page but never a business rejection or a system error', async () => {
    const gateway = fakeService({ status: 502, text: '<html>Bad Gateway</html>' }, standardOk({ latest_version: '1.0.0' }));
    assert.equal((await new Client(options(gateway.fetch)).checkVersion({ version: '1.0.0' })).success, true);
    assert.equal(gateway.seen.length, 2);
    for (const reply of [
      standardFailure(ErrorCode.CARD_BANNED),
      standardFailure(ErrorCode.SYSTEM_ERROR, 500),
      standardFailure(ErrorCode.RATE_LIMITED, 429),
    ]) {
      const service = fakeService(reply);
      const r = await new Client(options(service.fetch)).cardLogin({ cardKey: 'CK', machineId: 'PC-1' });
      assert.equal(r.success, false);
      assert.equal(service.seen.length, 1);
    }
  });

  it('never retries a registration or an unbind', async () => {
    const service = fakeService(connectionRefused());
    const client = new Client(options(service.fetch));
    assert.equal(
      (await client.userRegister({ username: 'alice', password: 'secret-1', machineId: 'm' })).code,
      ClientErrorCode.NETWORK_ERROR,
    );
    assert.equal((await client.legacy.unbind({ cardKey: 'CK', machineId: 'm' })).code, ClientErrorCode.NETWORK_ERROR);
    assert.equal(service.seen.length, 2);
  });

  it('times out an attempt that gets no answer', async () => {
    // An open socket keeps the process alive while it waits; the fake holds a timer for that.
    const hang: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        const socket = setTimeout(() => reject(new Error('the timeout did not fire')), 5_000);
        init.signal.addEventListener('abort', () => {
          clearTimeout(socket);
          reject(init.signal.reason);
        });
      });
    const r = await new Client({ ...options(hang), timeoutMs: 20, retries: 1 }).checkVersion({ version: '1.0.0' });
    assert.deepEqual([r.code, r.message], [ClientErrorCode.NETWORK_ERROR, 'The service could not be reached: timed out']);
  });
});

describe('other families', () => {
  it('V3 sends a signed form {app, kami, imei} and reads the standard answer', async () => {
    const service = fakeService(
      standardOk({ id: 1, code: 'CK', machine_code: 'PC-1', expires_at: 'x' }, { token: 'compat', statecode: 'active' }),
    );
    const r = await new Client(options(service.fetch)).v3CardLogin({ cardKey: 'CK', machineId: 'PC-1' });
    assert.equal(r.data?.token, 'compat');
    const [sent] = service.seen;
    assert.equal(sent.url, `${BASE}/api/legacy/v3/cards/login`);
    assert.equal(sent.headers['Content-Type'], 'application/x-www-form-urlencoded');
    assert.equal(sent.body, 'app=48213907&kami=CK&imei=PC-1');
    verifiesHmac(sent, '/api/legacy/v3/cards/login');
  });

  it('Connect sends user_key, serial and a fresh nonce per attempt; a nonce of the caller is never retried', async () => {
    const service = fakeService(connectionRefused(), {
      json: { status: true, code: 1, reason: 'ok', data: { token: 't', machine_code: 'PC-1' }, request_id: 'r' },
    });
    const client = new Client(options(service.fetch));
    const r = await client.connectLogin({ cardKey: 'CK', serial: 'PC-1' });
    assert.equal(r.success, true);
    assert.equal(service.seen[0].url, `${BASE}/connect/48213907`);
    const [first, second] = service.seen.map((s) => new URLSearchParams(s.body));
    assert.deepEqual([first.get('user_key'), first.get('serial')], ['CK', 'PC-1']);
    assert.notEqual(first.get('nonce'), second.get('nonce'));

    const fixed = fakeService(connectionRefused());
    assert.equal(
      (await new Client(options(fixed.fetch)).connectLogin({ cardKey: 'CK', serial: 'PC-1', nonce: 'mine' })).code,
      ClientErrorCode.NETWORK_ERROR,
    );
    assert.equal(fixed.seen.length, 1);
    assert.equal(new URLSearchParams(fixed.seen[0].body).get('nonce'), 'mine');

    const none = fakeService({ json: { status: true, code: 1, reason: 'ok', data: { machine_code: 'PC-1' } } });
    assert.equal(
      (await new Client(options(none.fetch)).connectLogin({ cardKey: 'CK', serial: 'PC-1', nonce: false })).success,
      true,
    );
    assert.equal(new URLSearchParams(none.seen[0].body).has('nonce'), false);
  });

  it('legacy helpers send MD5-signed forms and apply the code 1 rule', async () => {
    const service = fakeService(
      { json: { code: 1, msg: 'ok', data: { token: 't', code: 'CK', machine_code: 'PC-1' }, request_id: 'r' } },
      { json: { code: 20005, msg: 'refused', request_id: 'r' } },
    );
    const client = new Client(options(service.fetch));
    assert.equal((await client.legacy.cardLogin({ cardKey: 'CK', machineId: 'PC-1' })).success, true);
    const unbind = await client.legacy.unbind({ cardKey: 'CK', machineId: 'PC-1' });
    assert.deepEqual([unbind.success, unbind.code], [false, ErrorCode.UNBIND_REFUSED]);
    assert.deepEqual(
      service.seen.map((s) => s.url),
      [`${BASE}/api/card_login`, `${BASE}/api/unbind_machine`],
    );
    for (const request of service.seen) {
      const fields = Object.fromEntries(new URLSearchParams(request.body));
      const { sign, ...signed } = fields;
      // `nonce` binds the signed answer to this request (decisions §15); it is signed like every field.
      assert.deepEqual(Object.keys(signed).sort(), ['app', 'imei', 'kami', 'nonce', 't']);
      assert.equal(sign, md5Sign(signed, 'legacy-secret'));
    }
    assert.throws(
      () =>
        new Client({ ...options(service.fetch), legacySecret: undefined }).legacy.cardLogin({ cardKey: 'CK', machineId: 'm' }),
      /legacySecret/,
    );
  });

  it('refuses options it cannot work with', () => {
    const { fetch } = fakeService({ json: {} });
    assert.throws(() => new Client({ ...options(fetch), baseUrl: 'licence.test' }), /http or https/);
    assert.throws(() => new Client({ ...options(fetch), apiSecret: '' }), /apiSecret/);
    assert.throws(() => new Client({ ...options(fetch), programId: '' }), /programId/);
  });
});
