import assert from 'node:assert/strict';
import { createPrivateKey, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { answerDistrust, Client, ClientErrorCode, ErrorCode, FetchLike, responseSigningInput, verifyLicence } from '../src';
import vectors from '../vectors/signing-vectors.json';
import { connectionRefused, fakeService } from './fake-service';

const { ed25519 } = vectors;
const keys = { [ed25519.kid]: ed25519.public_key };
const privateKey = createPrivateKey({ key: Buffer.from(`302e020100300506032b657004220420${ed25519.seed}`, 'hex'), format: 'der', type: 'pkcs8' });
const headersOf = (values: Record<string, string>) => ({ get: (name: string) => values[name.toLowerCase()] ?? null });

function signedHeaders(request: { method: string; path: string; nonce: string }, status: number, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = sign(null, responseSigningInput(request, String(timestamp), status, Buffer.from(body)), privateKey).toString('base64url');
  return { 'x-svc-response-timestamp': String(timestamp), 'x-svc-response-key': ed25519.kid, 'x-svc-response-signature': signature };
}

describe('signed answers (decisions §15)', () => {
  for (const v of ed25519.responses) {
    it(`verifies the fixed vector: ${v.name}`, () => {
      const request = { method: v.method, path: v.path, nonce: v.nonce };
      assert.equal(responseSigningInput(request, v.timestamp, v.status, Buffer.from(v.body)).toString('utf8'), v.input);
      const answer = { status: v.status, body: Buffer.from(v.body), headers: headersOf({ 'x-svc-response-timestamp': v.timestamp, 'x-svc-response-key': ed25519.kid, 'x-svc-response-signature': v.signature }) };
      assert.equal(answerDistrust(answer, request, keys, 300, Number(v.timestamp)), null);
      const flipped = Buffer.from(v.body);
      flipped[0] ^= 1;
      assert.match(answerDistrust({ ...answer, body: flipped }, request, keys, 300, Number(v.timestamp)) ?? '', /does not verify/);
      assert.match(answerDistrust({ ...answer, status: v.status + 1 }, request, keys, 300, Number(v.timestamp)) ?? '', /does not verify/);
      assert.match(answerDistrust(answer, { ...request, nonce: `${v.nonce}x` }, keys, 300, Number(v.timestamp)) ?? '', /does not verify/);
      assert.match(answerDistrust(answer, { ...request, path: `${v.path}/x` }, keys, 300, Number(v.timestamp)) ?? '', /does not verify/);
      assert.match(answerDistrust(answer, request, keys, 300, Number(v.timestamp) + 301) ?? '', /time window/);
      assert.match(answerDistrust(answer, request, {}, 300, Number(v.timestamp)) ?? '', /unknown key/);
    });
  }

  it('refuses, as UNTRUSTED_RESPONSE and never a success, an unsigned or wrongly signed success', async () => {
    const success = { code: 0, success: true, msg: 'ok', token: 't', data: { id: 1, session_token: 's'.repeat(43), session_expires_at: 'x' } };
    const forged = fakeService({ json: success });
    const client = new Client({ baseUrl: 'http://svc', programId: '48213907', apiSecret: 'k', fetch: forged.fetch, responseKeys: keys, retries: 0 });
    const result = await client.cardLogin({ cardKey: 'CK', machineId: 'PC' });
    assert.equal(result.success, false);
    assert.equal(result.code, ClientErrorCode.UNTRUSTED_RESPONSE);
    assert.equal(client.session, undefined);

    // A signature made for another request (its nonce) is refused too: no replay of old answers.
    const replayed = fakeService(() => ({ json: success, headers: signedHeaders({ method: 'POST', path: '/api/v1/cards/login', nonce: 'old-nonce' }, 200, JSON.stringify(success)) }));
    const again = new Client({ baseUrl: 'http://svc', programId: '48213907', apiSecret: 'k', fetch: replayed.fetch, responseKeys: keys, retries: 0 });
    assert.equal((await again.cardLogin({ cardKey: 'CK', machineId: 'PC' })).code, ClientErrorCode.UNTRUSTED_RESPONSE);
  });

  it('accepts an answer signed over this request and then applies the family rule', async () => {
    const body = JSON.stringify({ code: 0, success: true, msg: 'ok', data: { latest_version: '2.0', update_available: true, force_update: false, changelog: null, download_url: null } });
    const service = fakeService((request) => ({ text: body, headers: { 'content-type': 'application/json', ...signedHeaders({ method: 'POST', path: '/api/v1/apps/version', nonce: request.headers['X-Svc-Nonce'] }, 200, body) } }));
    const client = new Client({ baseUrl: 'http://svc', programId: '48213907', apiSecret: 'k', fetch: service.fetch, responseKeys: keys });
    const result = await client.checkVersion({ version: '1.0' });
    assert.equal(result.success, true);
    assert.equal(result.data?.latest_version, '2.0');
  });
});

describe('signed answers of the self-service routes', () => {
  const routes = [
    { path: '/api/v1/cards/topup', body: { code: 0, success: true, msg: 'ok', data: { kind: 'time', status: 'active', expires_at: 'x', uses_left: null } }, run: (c: Client) => c.cardTopup({ cardKey: 'CK', topupKey: 'TOP' }) },
    { path: '/api/v1/cards/info', body: { code: 0, success: true, msg: 'ok', data: { kind: 'time', status: 'active', devices: [] } }, run: (c: Client) => c.cardInfo({ cardKey: 'CK' }) },
    { path: '/api/v1/cards/unbind', body: { code: 1, success: true, msg: 'Unbound', data: { id: 1, unbind_count: 1 } }, run: (c: Client) => c.cardUnbind({ cardKey: 'CK', machineId: 'PC' }) },
  ];
  const pinned = (fetch: FetchLike) => new Client({ baseUrl: 'http://svc', programId: '48213907', apiSecret: 'k', fetch, responseKeys: keys, retries: 0 });

  for (const route of routes) {
    it(`${route.path}: believed only when signed over this request`, async () => {
      const text = JSON.stringify(route.body);
      const good = fakeService((request) => ({ text, headers: { 'content-type': 'application/json', ...signedHeaders({ method: 'POST', path: route.path, nonce: request.headers['X-Svc-Nonce'] }, 200, text) } }));
      assert.equal((await route.run(pinned(good.fetch))).success, true);

      const unsigned = fakeService({ json: route.body });
      assert.equal((await route.run(pinned(unsigned.fetch))).code, ClientErrorCode.UNTRUSTED_RESPONSE);

      // Signed for another route (the login) with this request's nonce: not this answer.
      const elsewhere = fakeService((request) => ({ text, headers: { 'content-type': 'application/json', ...signedHeaders({ method: 'POST', path: '/api/v1/cards/login', nonce: request.headers['X-Svc-Nonce'] }, 200, text) } }));
      const moved = await route.run(pinned(elsewhere.fetch));
      assert.deepEqual([moved.success, moved.code], [false, ClientErrorCode.UNTRUSTED_RESPONSE]);
    });
  }

  it('a signed refusal is a refusal with its code', async () => {
    const text = JSON.stringify({ code: 20008, success: false, msg: 'This card is banned', request_id: 'r' });
    const service = fakeService((request) => ({ text, headers: { 'content-type': 'application/json', ...signedHeaders({ method: 'POST', path: '/api/v1/cards/topup', nonce: request.headers['X-Svc-Nonce'] }, 200, text) } }));
    const r = await pinned(service.fetch).cardTopup({ cardKey: 'CK', topupKey: 'TOP' });
    assert.deepEqual([r.success, r.code, r.message], [false, ErrorCode.TOPUP_REFUSED, 'This card is banned']);
  });
});

describe('offline licences', () => {
  const [v] = ed25519.licences;
  const expect = { keys, programId: v.payload.program_id, machineId: v.payload.machine_id, cardKey: v.card_key, now: v.payload.issued_at + 60 };

  it('verifies the fixed licence vector without a network', () => {
    assert.deepEqual(verifyLicence(v.licence, expect), { valid: true, payload: v.payload });
  });

  it('refuses another machine, program or card, an expired licence, an unknown key and a tampered payload', () => {
    assert.deepEqual(verifyLicence(v.licence, { ...expect, machineId: 'PC-002' }), { valid: false, reason: 'for another machine' });
    assert.deepEqual(verifyLicence(v.licence, { ...expect, programId: '11111111' }), { valid: false, reason: 'for another program' });
    assert.deepEqual(verifyLicence(v.licence, { ...expect, cardKey: 'OTHER' }), { valid: false, reason: 'for another card' });
    assert.deepEqual(verifyLicence(v.licence, { ...expect, now: v.payload.valid_until + 1 }), { valid: false, reason: 'expired' });
    assert.equal(verifyLicence(v.licence, { ...expect, keys: {} }).valid, false);
    const [payload, signature] = v.licence.split('.');
    const longer = Buffer.from(JSON.stringify({ ...v.payload, valid_until: v.payload.valid_until + 86400 })).toString('base64url');
    assert.deepEqual(verifyLicence(`${longer}.${signature}`, expect), { valid: false, reason: 'the signature does not verify' });
    assert.equal(verifyLicence(payload, expect).valid, false);
  });

  it('lets a client fall back on a kept licence when the service cannot be reached', async () => {
    const down = fakeService(connectionRefused());
    const client = new Client({ baseUrl: 'http://svc', programId: v.payload.program_id, apiSecret: 'k', fetch: down.fetch, responseKeys: keys, retries: 0 });
    const login = await client.cardLogin({ cardKey: v.card_key, machineId: v.payload.machine_id });
    assert.equal(login.code, ClientErrorCode.NETWORK_ERROR);
    const check = client.checkLicence(v.licence, { cardKey: v.card_key, machineId: v.payload.machine_id }, v.payload.issued_at + 60);
    assert.equal(check.valid, true);
  });
});
