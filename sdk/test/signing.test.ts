import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hmacSignature, hmacSigningInput, md5Sign, md5SignedFields, md5SigningInput, signatureHeaders } from '../src';
import vectors from '../vectors/signing-vectors.json';

describe('HMAC signing (V3 and SDK)', () => {
  for (const v of vectors.hmac) {
    it(`matches the fixed vector: ${v.name}`, () => {
      assert.equal(hmacSigningInput(v), v.input);
      assert.equal(hmacSignature(v.secret, v), v.signature);
    });
  }

  it('signs with a fresh nonce and the current time unless given', () => {
    const parts = { method: 'POST', path: '/api/v1/cards/login', body: '{}' };
    const a = signatureHeaders('k', parts);
    const b = signatureHeaders('k', parts);
    assert.match(a['X-Svc-Nonce'], /^[A-Za-z0-9_.:-]{8,96}$/);
    assert.notEqual(a['X-Svc-Nonce'], b['X-Svc-Nonce']);
    assert.ok(Math.abs(Number(a['X-Svc-Timestamp']) - Date.now() / 1000) < 5);
    assert.equal(
      a['X-Svc-Signature'],
      hmacSignature('k', { ...parts, timestamp: a['X-Svc-Timestamp'], nonce: a['X-Svc-Nonce'] }),
    );
  });

  it('changes with every signed part', () => {
    const v = vectors.hmac[0];
    for (const change of [
      { method: 'PUT' },
      { path: '/api/v1/users/login' },
      { timestamp: '1763800001' },
      { nonce: 'n0nce-0002' },
      { body: `${v.body} ` },
    ]) {
      assert.notEqual(hmacSignature(v.secret, { ...v, ...change }), v.signature, JSON.stringify(change));
    }
    assert.notEqual(hmacSignature(`${v.secret}x`, v), v.signature);
  });
});

describe('MD5 signing (legacy)', () => {
  for (const v of vectors.md5) {
    it(`matches the fixed vector: ${v.name}`, () => {
      const fields = v.fields as unknown as Record<string, string>;
      assert.equal(md5SigningInput(fields, v.secret), v.input);
      assert.equal(md5Sign(fields, v.secret), v.sign);
    });
  }

  it('adds t (now) and its sign', () => {
    const signed = md5SignedFields({ app: '48213907', kami: 'K', imei: 'M' }, 'secret');
    assert.ok(Math.abs(Number(signed.t) - Date.now() / 1000) < 5);
    const { sign, ...rest } = signed;
    assert.equal(sign, md5Sign(rest, 'secret'));
  });
});
