import { verify } from 'node:crypto';
import vectors from '../../sdk/vectors/signing-vectors.json';
import {
  generateSigningKey,
  kidOf,
  LicencePayload,
  privateKeyFromDer,
  responseSigningInput,
  signEd25519,
  signLicence,
} from './ed25519';

const { ed25519 } = vectors;
/** The RFC 8032 test key as the service stores keys: PKCS#8 DER. */
const key = privateKeyFromDer(Buffer.from(`302e020100300506032b657004220420${ed25519.seed}`, 'hex').toString('base64'));

describe('Ed25519 signing: the vectors the official clients verify (sdk/vectors)', () => {
  it('derives the kid from the raw public key (RFC 8032 test 1)', () => {
    expect(ed25519.public_key_hex).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(kidOf(Buffer.from(ed25519.public_key_hex, 'hex'))).toBe(ed25519.kid);
  });

  it.each(ed25519.responses.map((v) => [v.name, v] as const))('signs the v2 answer vector: %s', (_name, v) => {
    const answer = {
      method: v.method,
      path: v.path,
      nonce: v.nonce,
      timestamp: Number(v.timestamp),
      status: v.status,
      request: Buffer.from(v.request, 'utf8'),
      body: Buffer.from(v.body, 'utf8'),
    };
    const input = responseSigningInput(answer);
    expect(input.toString('utf8')).toBe(v.input);
    expect(signEd25519(key, input)).toBe(v.signature);
    // Another request (one byte changed) is another signed string.
    expect(signEd25519(key, responseSigningInput({ ...answer, request: Buffer.from(`${v.request} `, 'utf8') }))).not.toBe(
      v.signature,
    );
  });

  it('never produces a v1 signature any more', () => {
    for (const v of ed25519.responses_v1) {
      const input = responseSigningInput({
        method: v.method,
        path: v.path,
        nonce: v.nonce,
        timestamp: Number(v.timestamp),
        status: v.status,
        request: Buffer.alloc(0),
        body: Buffer.from(v.body, 'utf8'),
      });
      expect(input.toString('utf8')).toMatch(/^svc-response-v2\n/);
      expect(signEd25519(key, input)).not.toBe(v.signature);
    }
  });

  it('issues the licence vector byte for byte', () => {
    const [v] = ed25519.licences;
    expect(signLicence(key, v.payload as LicencePayload)).toBe(v.licence);
  });

  it('generates distinct keys whose kid is that of their public key, and whose signatures OpenSSL verifies', () => {
    const a = generateSigningKey();
    const b = generateSigningKey();
    expect(a.kid).not.toBe(b.kid);
    expect(a.kid).toBe(kidOf(Buffer.from(a.publicKey, 'base64url')));
    const signature = signEd25519(privateKeyFromDer(a.privateKeyDer), Buffer.from('x'));
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    const publicKeyOf = (k: { publicKey: string }) => ({
      key: { kty: 'OKP', crv: 'Ed25519', x: k.publicKey },
      format: 'jwk' as const,
    });
    expect(verify(null, Buffer.from('x'), publicKeyOf(a), Buffer.from(signature, 'base64url'))).toBe(true);
    expect(verify(null, Buffer.from('x'), publicKeyOf(b), Buffer.from(signature, 'base64url'))).toBe(false);
  });
});
