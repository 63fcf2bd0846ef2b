import assert from 'node:assert/strict';
import { createPrivateKey, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  answerDistrust,
  Client,
  ClientErrorCode,
  ErrorCode,
  FetchLike,
  requestDigest,
  requestDigestInput,
  responseSigningInput,
  sealText,
  SentRequest,
  verifyLicence,
} from '../src';
import vectors from '../vectors/signing-vectors.json';
import { connectionRefused, fakeService, SeenRequest } from './fake-service';

const { ed25519 } = vectors;
const keys = { [ed25519.kid]: ed25519.public_key };
const privateKey = createPrivateKey({
  key: Buffer.from(`302e020100300506032b657004220420${ed25519.seed}`, 'hex'),
  format: 'der',
  type: 'pkcs8',
});
const headersOf = (values: Record<string, string>) => ({ get: (name: string) => values[name.toLowerCase()] ?? null });

/** The signing headers of an answer to `request` (version 2 unless `version` says otherwise), as the service sends them. */
function signedHeaders(
  request: SentRequest,
  status: number,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
  version = '2',
) {
  const signature = sign(null, responseSigningInput(request, String(timestamp), status, Buffer.from(body)), privateKey).toString(
    'base64url',
  );
  return {
    'x-svc-response-timestamp': String(timestamp),
    'x-svc-response-key': ed25519.kid,
    'x-svc-response-signature': signature,
    'x-svc-response-version': version,
  };
}

/** What a request seen by the fake service sent, for the signature of its answer. */
const sentBy = (request: SeenRequest, path: string, nonce = request.headers['X-Svc-Nonce']): SentRequest => ({
  method: 'POST',
  path,
  nonce,
  digested: Buffer.from(request.body),
});

describe('signed answers (decisions §17)', () => {
  for (const v of ed25519.responses) {
    it(`verifies the fixed v2 vector: ${v.name}`, () => {
      const request = { method: v.method, path: v.path, nonce: v.nonce, digested: Buffer.from(v.request) };
      assert.equal(requestDigest(request.digested), v.request_digest);
      assert.equal(responseSigningInput(request, v.timestamp, v.status, Buffer.from(v.body)).toString('utf8'), v.input);
      const signing = {
        'x-svc-response-timestamp': v.timestamp,
        'x-svc-response-key': ed25519.kid,
        'x-svc-response-signature': v.signature,
        'x-svc-response-version': '2',
      };
      const answer = { status: v.status, body: Buffer.from(v.body), headers: headersOf(signing) };
      assert.equal(answerDistrust(answer, request, keys, 300, Number(v.timestamp)), null);
      // What a relay does: the same nonce, another request to the service.
      assert.match(
        answerDistrust(answer, { ...request, digested: Buffer.from(`${v.request}x`) }, keys, 300, Number(v.timestamp)) ?? '',
        /does not verify/,
      );
      const unversioned = { ...answer, headers: headersOf({ ...signing, 'x-svc-response-version': '' }) };
      assert.match(answerDistrust(unversioned, request, keys, 300, Number(v.timestamp)) ?? '', /not signed in version 2/);
      const flipped = Buffer.from(v.body);
      flipped[0] ^= 1;
      assert.match(
        answerDistrust({ ...answer, body: flipped }, request, keys, 300, Number(v.timestamp)) ?? '',
        /does not verify/,
      );
      assert.match(
        answerDistrust({ ...answer, status: v.status + 1 }, request, keys, 300, Number(v.timestamp)) ?? '',
        /does not verify/,
      );
      assert.match(
        answerDistrust(answer, { ...request, nonce: `${v.nonce}x` }, keys, 300, Number(v.timestamp)) ?? '',
        /does not verify/,
      );
      assert.match(
        answerDistrust(answer, { ...request, path: `${v.path}/x` }, keys, 300, Number(v.timestamp)) ?? '',
        /does not verify/,
      );
      assert.match(answerDistrust(answer, request, keys, 300, Number(v.timestamp) + 301) ?? '', /time window/);
      assert.match(answerDistrust(answer, request, {}, 300, Number(v.timestamp)) ?? '', /unknown key/);
    });
  }

  for (const v of ed25519.responses_v1) {
    it(`refuses a genuine v1 signature, whatever version it claims: ${v.name}`, () => {
      for (const version of [null, '1', '2']) {
        const headers = {
          'x-svc-response-timestamp': v.timestamp,
          'x-svc-response-key': ed25519.kid,
          'x-svc-response-signature': v.signature,
          ...(version ? { 'x-svc-response-version': version } : {}),
        };
        const answer = { status: v.status, body: Buffer.from(v.body), headers: headersOf(headers) };
        const request = { method: v.method, path: v.path, nonce: v.nonce, digested: Buffer.alloc(0) };
        assert.match(
          answerDistrust(answer, request, keys, 300, Number(v.timestamp)) ?? '',
          version === '2' ? /does not verify/ : /not signed in version 2/,
        );
      }
    });
  }

  it('digests the body sent, or the raw query string of a request without one', () => {
    assert.equal(requestDigestInput('POST', '/api/v1/cards/login', '{"a":1}').toString(), '{"a":1}');
    assert.equal(requestDigestInput('GET', '/api/announcement?app=48213907&nonce=n').toString(), 'app=48213907&nonce=n');
    assert.equal(requestDigestInput('GET', '/api/announcement?app=1', 'ignored').toString(), 'app=1');
    assert.equal(
      requestDigest(requestDigestInput('POST', '/api/x', '')),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('refuses, as UNTRUSTED_RESPONSE and never a success, an unsigned or wrongly signed success', async () => {
    const success = {
      code: 0,
      success: true,
      msg: 'ok',
      token: 't',
      data: { id: 1, session_token: 's'.repeat(43), session_expires_at: 'x' },
    };
    const forged = fakeService({ json: success });
    const client = new Client({
      baseUrl: 'http://svc',
      programId: '48213907',
      apiSecret: 'k',
      fetch: forged.fetch,
      responseKeys: keys,
      retries: 0,
    });
    const result = await client.cardLogin({ cardKey: 'CK', machineId: 'PC' });
    assert.equal(result.success, false);
    assert.equal(result.code, ClientErrorCode.UNTRUSTED_RESPONSE);
    assert.equal(client.session, undefined);

    // A signature made for another request (its nonce) is refused too: no replay of old answers.
    const replayed = fakeService((request) => ({
      json: success,
      headers: signedHeaders(sentBy(request, '/api/v1/cards/login', 'old-nonce'), 200, JSON.stringify(success)),
    }));
    const again = new Client({
      baseUrl: 'http://svc',
      programId: '48213907',
      apiSecret: 'k',
      fetch: replayed.fetch,
      responseKeys: keys,
      retries: 0,
    });
    assert.equal((await again.cardLogin({ cardKey: 'CK', machineId: 'PC' })).code, ClientErrorCode.UNTRUSTED_RESPONSE);
  });

  it('refuses a genuine v1 signature over this very request when keys are pinned', async () => {
    const success = { code: 0, success: true, msg: 'ok', data: { latest_version: '2.0' } };
    const text = JSON.stringify(success);
    const v1 = fakeService((request) => {
      const input = Buffer.from(
        `svc-response-v1\nPOST\n/api/v1/apps/version\n${request.headers['X-Svc-Nonce']}\n${Math.floor(Date.now() / 1000)}\n200\n${text}`,
      );
      return {
        text,
        headers: {
          'content-type': 'application/json',
          'x-svc-response-timestamp': String(Math.floor(Date.now() / 1000)),
          'x-svc-response-key': ed25519.kid,
          'x-svc-response-signature': sign(null, input, privateKey).toString('base64url'),
        },
      };
    });
    const result = await new Client({
      baseUrl: 'http://svc',
      programId: '48213907',
      apiSecret: 'k',
      fetch: v1.fetch,
      responseKeys: keys,
      retries: 0,
    }).checkVersion({ version: '1.0' });
    assert.deepEqual([result.success, result.code], [false, ClientErrorCode.UNTRUSTED_RESPONSE]);
    assert.match(result.message, /version 2/);
  });

  it('refuses a success signed over this request that names another device or card, and a heartbeat for another card', async () => {
    const login = (data: Record<string, unknown>) => {
      const text = JSON.stringify({
        code: 0,
        success: true,
        msg: 'ok',
        data: { id: 7, code: 'CK', machine_code: 'PC', session_token: 's', session_expires_at: 'x', ...data },
      });
      return (request: SeenRequest) => ({
        text,
        headers: { 'content-type': 'application/json', ...signedHeaders(sentBy(request, '/api/v1/cards/login'), 200, text) },
      });
    };
    const pinned = (fetch: FetchLike) =>
      new Client({ baseUrl: 'http://svc', programId: '48213907', apiSecret: 'k', fetch, responseKeys: keys, retries: 0 });
    for (const [data, what] of [
      [{ code: 'OTHER-CARD' }, 'card'],
      [{ machine_code: 'OTHER-PC' }, 'device'],
      [{ machine_code: undefined }, 'device'],
    ] as const) {
      const client = pinned(fakeService(login(data)).fetch);
      const result = await client.cardLogin({ cardKey: 'CK', machineId: 'PC' });
      assert.deepEqual(
        [result.success, result.code, result.message],
        [false, ClientErrorCode.UNTRUSTED_RESPONSE, `Untrusted answer: it is for another ${what} than the one sent`],
      );
      assert.equal(client.session, undefined);
    }

    const beat = (cardId: number, expires: string) => (request: SeenRequest) => {
      const text = JSON.stringify({
        code: 0,
        success: true,
        msg: 'ok',
        data: { card_id: cardId, session_expires_at: expires, server_time: 1 },
      });
      return {
        text,
        headers: { 'content-type': 'application/json', ...signedHeaders(sentBy(request, '/api/v1/cards/heartbeat'), 200, text) },
      };
    };
    const client = pinned(fakeService(login({}), beat(7, 'y'), beat(8, 'z')).fetch);
    assert.equal((await client.cardLogin({ cardKey: 'CK', machineId: 'PC' })).success, true);
    assert.equal((await client.cardHeartbeat()).success, true);
    const swapped = await client.cardHeartbeat();
    assert.deepEqual([swapped.success, swapped.code], [false, ClientErrorCode.UNTRUSTED_RESPONSE]);
    assert.equal(client.session?.expiresAt, 'y', 'an untrusted heartbeat renews nothing');
  });

  it('verifies an encrypted legacy answer with an empty nonce, over the ciphertext form sent', async () => {
    const transport = { mode: 'rc4' as const, key: 'transport-key' };
    const service = fakeService((request) => {
      const text = JSON.stringify({
        code: 1,
        msg: 'ok',
        data: sealText(transport, JSON.stringify({ id: 7, code: 'CK', machine_code: 'PC' })),
      });
      return {
        text,
        headers: { 'content-type': 'application/json', ...signedHeaders(sentBy(request, '/api/app', ''), 200, text) },
      };
    });
    const client = new Client({
      baseUrl: 'http://svc',
      programId: '48213907',
      apiSecret: 'k',
      legacySecret: 'l',
      legacyTransport: transport,
      fetch: service.fetch,
      responseKeys: keys,
    });
    const result = await client.legacy.cardLogin({ cardKey: 'CK', machineId: 'PC' });
    assert.deepEqual([result.success, result.data?.machine_code], [true, 'PC']);
  });

  it('accepts an answer signed over this request and then applies the family rule', async () => {
    const body = JSON.stringify({
      code: 0,
      success: true,
      msg: 'ok',
      data: { latest_version: '2.0', update_available: true, force_update: false, changelog: null, download_url: null },
    });
    const service = fakeService((request) => ({
      text: body,
      headers: { 'content-type': 'application/json', ...signedHeaders(sentBy(request, '/api/v1/apps/version'), 200, body) },
    }));
    const client = new Client({
      baseUrl: 'http://svc',
      programId: '48213907',
      apiSecret: 'k',
      fetch: service.fetch,
      responseKeys: keys,
    });
    const result = await client.checkVersion({ version: '1.0' });
    assert.equal(result.success, true);
    assert.equal(result.data?.latest_version, '2.0');
  });
});

describe('signed answers of the self-service routes', () => {
  const routes = [
    {
      path: '/api/v1/cards/topup',
      body: { code: 0, success: true, msg: 'ok', data: { kind: 'time', status: 'active', expires_at: 'x', uses_left: null } },
      run: (c: Client) => c.cardTopup({ cardKey: 'CK', topupKey: 'TOP' }),
    },
    {
      path: '/api/v1/cards/info',
      body: { code: 0, success: true, msg: 'ok', data: { kind: 'time', status: 'active', devices: [] } },
      run: (c: Client) => c.cardInfo({ cardKey: 'CK' }),
    },
    {
      path: '/api/v1/cards/unbind',
      body: { code: 1, success: true, msg: 'Unbound', data: { id: 1, code: 'CK', machine_code: 'PC', unbind_count: 1 } },
      run: (c: Client) => c.cardUnbind({ cardKey: 'CK', machineId: 'PC' }),
    },
  ];
  const pinned = (fetch: FetchLike) =>
    new Client({ baseUrl: 'http://svc', programId: '48213907', apiSecret: 'k', fetch, responseKeys: keys, retries: 0 });

  for (const route of routes) {
    it(`${route.path}: believed only when signed over this request`, async () => {
      const text = JSON.stringify(route.body);
      const good = fakeService((request) => ({
        text,
        headers: { 'content-type': 'application/json', ...signedHeaders(sentBy(request, route.path), 200, text) },
      }));
      assert.equal((await route.run(pinned(good.fetch))).success, true);

      const unsigned = fakeService({ json: route.body });
      assert.equal((await route.run(pinned(unsigned.fetch))).code, ClientErrorCode.UNTRUSTED_RESPONSE);

      // Signed for another route (the login) with this request's nonce: not this answer.
      const elsewhere = fakeService((request) => ({
        text,
        headers: { 'content-type': 'application/json', ...signedHeaders(sentBy(request, '/api/v1/cards/login'), 200, text) },
      }));
      const moved = await route.run(pinned(elsewhere.fetch));
      assert.deepEqual([moved.success, moved.code], [false, ClientErrorCode.UNTRUSTED_RESPONSE]);
    });
  }

  it('a signed refusal is a refusal with its code', async () => {
    const text = JSON.stringify({ code: 20008, success: false, msg: 'This card is banned', request_id: 'r' });
    const service = fakeService((request) => ({
      text,
      headers: { 'content-type': 'application/json', ...signedHeaders(sentBy(request, '/api/v1/cards/topup'), 200, text) },
    }));
    const r = await pinned(service.fetch).cardTopup({ cardKey: 'CK', topupKey: 'TOP' });
    assert.deepEqual([r.success, r.code, r.message], [false, ErrorCode.TOPUP_REFUSED, 'This card is banned']);
  });
});

describe('offline licences', () => {
  const [v] = ed25519.licences;
  const expect = {
    keys,
    programId: v.payload.program_id,
    machineId: v.payload.machine_id,
    cardKey: v.card_key,
    now: v.payload.issued_at + 60,
  };

  it('verifies the fixed licence vector without a network', () => {
    assert.deepEqual(verifyLicence(v.licence, expect), { valid: true, payload: v.payload });
  });

  it('refuses another machine, program or card, an expired licence, an unknown key and a tampered payload', () => {
    assert.deepEqual(verifyLicence(v.licence, { ...expect, machineId: 'PC-002' }), {
      valid: false,
      reason: 'for another machine',
    });
    assert.deepEqual(verifyLicence(v.licence, { ...expect, programId: '11111111' }), {
      valid: false,
      reason: 'for another program',
    });
    assert.deepEqual(verifyLicence(v.licence, { ...expect, cardKey: 'OTHER' }), { valid: false, reason: 'for another card' });
    assert.deepEqual(verifyLicence(v.licence, { ...expect, now: v.payload.valid_until + 1 }), {
      valid: false,
      reason: 'expired',
    });
    assert.equal(verifyLicence(v.licence, { ...expect, keys: {} }).valid, false);
    const [payload, signature] = v.licence.split('.');
    const longer = Buffer.from(JSON.stringify({ ...v.payload, valid_until: v.payload.valid_until + 86400 })).toString(
      'base64url',
    );
    assert.deepEqual(verifyLicence(`${longer}.${signature}`, expect), { valid: false, reason: 'the signature does not verify' });
    assert.equal(verifyLicence(payload, expect).valid, false);
  });

  it("gives the card type's features a signed licence carries (decisions §19), and none of an older licence", () => {
    const encoded = Buffer.from(JSON.stringify({ ...v.payload, features: ['pro', 'export.pdf'] })).toString('base64url');
    const signature = sign(null, Buffer.from(`svc-licence-v1.${encoded}`), privateKey).toString('base64url');
    const check = verifyLicence(`${encoded}.${signature}`, expect);
    assert.equal(check.valid, true);
    assert.deepEqual(check.valid && check.payload.features, ['pro', 'export.pdf']);
    const older = verifyLicence(v.licence, expect);
    assert.equal(older.valid && older.payload.features, undefined);
  });

  it('gives the trial flag a signed licence carries (decisions §21)', () => {
    const encoded = Buffer.from(JSON.stringify({ ...v.payload, trial: true })).toString('base64url');
    const signature = sign(null, Buffer.from(`svc-licence-v1.${encoded}`), privateKey).toString('base64url');
    const check = verifyLicence(`${encoded}.${signature}`, expect);
    assert.equal(check.valid && check.payload.trial, true);
    assert.equal((verifyLicence(v.licence, expect) as { payload?: { trial?: boolean } }).payload?.trial, undefined);
  });

  it('lets a client fall back on a kept licence when the service cannot be reached', async () => {
    const down = fakeService(connectionRefused());
    const client = new Client({
      baseUrl: 'http://svc',
      programId: v.payload.program_id,
      apiSecret: 'k',
      fetch: down.fetch,
      responseKeys: keys,
      retries: 0,
    });
    const login = await client.cardLogin({ cardKey: v.card_key, machineId: v.payload.machine_id });
    assert.equal(login.code, ClientErrorCode.NETWORK_ERROR);
    const check = client.checkLicence(
      v.licence,
      { cardKey: v.card_key, machineId: v.payload.machine_id },
      v.payload.issued_at + 60,
    );
    assert.equal(check.valid, true);
  });
});
