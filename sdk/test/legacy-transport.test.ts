import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { describe, it } from 'node:test';
import { Client, ClientErrorCode, md5Sign, openText, sealText, TransportMode } from '../src';
import vectors from '../vectors/signing-vectors.json';
import { fakeService } from './fake-service';

const { transport } = vectors;
const MODES: Array<
  [TransportMode, ReadonlyArray<{ name: string; key: string; plaintext: string; data: string; iv_hex?: string }>]
> = [
  ['rc4', transport.rc4],
  ['aes', transport.aes],
  ['aes-gcm', transport['aes-gcm']],
];

describe('legacy transport encryption: the shared vectors (made with OpenSSL outside this repository)', () => {
  it('uses AES-256 as FIPS-197 C.3 does (the block cipher under aes and aes-gcm)', () => {
    const block = transport.aes256_block;
    const cipher = createCipheriv('aes-256-ecb', Buffer.from(block.key_hex, 'hex'), null).setAutoPadding(false);
    assert.equal(
      Buffer.concat([cipher.update(Buffer.from(block.plaintext_hex, 'hex')), cipher.final()]).toString('hex'),
      block.ciphertext_hex,
    );
  });

  for (const [mode, cases] of MODES) {
    for (const v of cases) {
      it(`${mode}: ${v.name} seals into the vector's data and opens back`, () => {
        const iv = v.iv_hex ? Buffer.from(v.iv_hex, 'hex') : undefined;
        assert.equal(sealText({ mode, key: v.key }, v.plaintext, iv), v.data);
        assert.equal(openText({ mode, key: v.key }, v.data), v.plaintext);
      });
    }
  }

  it('draws a fresh IV for every aes and aes-gcm request', () => {
    for (const mode of ['aes', 'aes-gcm'] as const) {
      assert.notEqual(sealText({ mode, key: 'k' }, 'same'), sealText({ mode, key: 'k' }, 'same'));
    }
  });

  it('refuses to open aes-gcm data with one byte changed (authenticated)', () => {
    const v = transport['aes-gcm'][0];
    const bytes = Buffer.from(v.data, 'base64');
    bytes[20] ^= 1;
    assert.throws(() => openText({ mode: 'aes-gcm', key: v.key }, bytes.toString('base64')));
  });
});

describe('legacy helpers of an encrypted program', () => {
  const key = transport.aes[0].key;
  const options = (mode: TransportMode, fetch: ReturnType<typeof fakeService>['fetch']) => ({
    baseUrl: 'http://svc.test',
    programId: '48213907',
    apiSecret: 'api',
    legacySecret: 'legacy-secret',
    legacyTransport: { mode, key },
    fetch,
    retryDelayMs: 1,
  });

  for (const [mode] of MODES) {
    it(`${mode}: sends app in clear and the signed fields sealed to /api/app, and opens the answer's data`, async () => {
      const cardData = { id: 7, code: 'CK-1', machine_code: 'PC-1', expires_at: '2026-12-22 08:00:00', note: '欢迎' };
      const service = fakeService({
        json: { code: 1, msg: 'ok', data: sealText({ mode, key }, JSON.stringify(cardData)), request_id: 'r1' },
      });
      const result = await new Client(options(mode, service.fetch)).legacy.cardLogin({ cardKey: 'CK-1', machineId: 'PC-1' });
      assert.equal(result.success, true);
      assert.deepEqual(result.data, cardData);

      const sent = service.seen[0];
      assert.equal(sent.url, 'http://svc.test/api/app');
      const form = new URLSearchParams(sent.body);
      assert.deepEqual([...form.keys()].sort(), ['app', 'data']);
      assert.equal(form.get('app'), '48213907');
      const inner = Object.fromEntries(new URLSearchParams(openText({ mode, key }, form.get('data')!)));
      assert.equal(inner.api, 'card_login');
      assert.equal(inner.kami, 'CK-1');
      assert.equal(inner.imei, 'PC-1');
      const { sign, ...signed } = inner;
      assert.equal(sign, md5Sign(signed, 'legacy-secret'));
    });
  }

  it('unbind goes to the canonical card_unbind action', async () => {
    const service = fakeService({ json: { code: 1, msg: 'ok', data: sealText({ mode: 'rc4', key }, '{"id":7}') } });
    await new Client(options('rc4', service.fetch)).legacy.unbind({ cardKey: 'CK-1', machineId: 'PC-1' });
    const data = new URLSearchParams(service.seen[0].body).get('data')!;
    assert.equal(new URLSearchParams(openText({ mode: 'rc4', key }, data)).get('api'), 'card_unbind');
  });

  it('a success whose data does not open with the key is UNEXPECTED_RESPONSE, never a success', async () => {
    const service = fakeService({
      json: { code: 1, msg: 'ok', data: sealText({ mode: 'aes-gcm', key: 'another key' }, '{"id":7}'), request_id: 'r9' },
    });
    const result = await new Client(options('aes-gcm', service.fetch)).legacy.cardLogin({ cardKey: 'CK-1', machineId: 'PC-1' });
    assert.equal(result.success, false);
    assert.equal(result.code, ClientErrorCode.UNEXPECTED_RESPONSE);
    assert.equal(result.requestId, 'r9');
  });

  it('a refusal stays as sent (failures are never encrypted)', async () => {
    const service = fakeService({ status: 200, json: { code: 20001, msg: 'The card key is invalid', request_id: 'r2' } });
    const result = await new Client(options('aes', service.fetch)).legacy.cardLogin({ cardKey: 'CK-1', machineId: 'PC-1' });
    assert.equal(result.success, false);
    assert.equal(result.code, 20001);
  });

  it('refuses an unknown mode or an empty key at construction', () => {
    const { fetch } = fakeService({ json: {} });
    assert.throws(
      () => new Client({ ...options('aes', fetch), legacyTransport: { mode: 'des' as TransportMode, key } }),
      /legacyTransport.mode/,
    );
    assert.throws(
      () => new Client({ ...options('aes', fetch), legacyTransport: { mode: 'aes', key: '' } }),
      /legacyTransport.key/,
    );
  });
});
