import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { rc4 } from './rc4';
import { openLegacyPayload, sealLegacyData } from './transport-codec';
import vectors from '../../../sdk/vectors/signing-vectors.json';

describe('rc4', () => {
  it('matches the published test vector (Key / Plaintext)', () => {
    expect(rc4(Buffer.from('Key'), Buffer.from('Plaintext')).toString('hex')).toBe('bbf316e8d940af0ad3');
  });

  it('is its own inverse', () => {
    const plain = randomBytes(100);
    expect(rc4(Buffer.from('k'), rc4(Buffer.from('k'), plain)).equals(plain)).toBe(true);
  });
});

describe('openLegacyPayload / sealLegacyData', () => {
  const aesKey = (key: string) => createHash('sha256').update(key).digest();

  it('opens AES-256-CBC with SHA-256(key) and a prefixed IV made outside the codec', () => {
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', aesKey('tk'), iv);
    const data = Buffer.concat([iv, cipher.update('api=notice&x=a%20b'), cipher.final()]).toString('base64');
    expect(openLegacyPayload('aes', 'tk', data).toString('utf8')).toBe('api=notice&x=a%20b');
  });

  it('round-trips aes-gcm and refuses a ciphertext with one flipped byte (authenticated)', () => {
    const sealed = Buffer.from(sealLegacyData('aes-gcm', 'tk', { ok: 1 }), 'base64');
    expect(JSON.parse(openLegacyPayload('aes-gcm', 'tk', sealed.toString('base64')).toString())).toEqual({ ok: 1 });
    for (const at of [0, 12, sealed.length - 1]) {
      const flipped = Buffer.from(sealed);
      flipped[at] ^= 1;
      expect(() => openLegacyPayload('aes-gcm', 'tk', flipped.toString('base64'))).toThrow();
    }
    expect(() => openLegacyPayload('aes-gcm', 'other-key', sealed.toString('base64'))).toThrow();
  });

  it('opens aes-gcm made outside the codec: IV (12) ‖ ciphertext ‖ tag (16), key SHA-256(transport key)', () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', aesKey('tk'), iv);
    const body = Buffer.concat([cipher.update('api=notice'), cipher.final()]);
    const data = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
    expect(openLegacyPayload('aes-gcm', 'tk', data).toString()).toBe('api=notice');
  });

  it('seals AES answers that decrypt outside the codec, with a fresh IV each time', () => {
    const a = Buffer.from(sealLegacyData('aes', 'tk', { ok: 1 }), 'base64');
    const b = Buffer.from(sealLegacyData('aes', 'tk', { ok: 1 }), 'base64');
    expect(a.subarray(0, 16).equals(b.subarray(0, 16))).toBe(false);
    const decipher = createDecipheriv('aes-256-cbc', aesKey('tk'), a.subarray(0, 16));
    expect(JSON.parse(Buffer.concat([decipher.update(a.subarray(16)), decipher.final()]).toString())).toEqual({ ok: 1 });
  });

  it('throws on AES data too short to hold an IV and a block', () => {
    expect(() => openLegacyPayload('aes', 'tk', Buffer.alloc(20).toString('base64'))).toThrow();
  });
});

describe('the shared transport vectors (sdk/vectors/signing-vectors.json, made with OpenSSL outside this repository)', () => {
  const { transport } = vectors;
  const modes = [
    ['rc4', transport.rc4],
    ['aes', transport.aes],
    ['aes-gcm', transport['aes-gcm']],
  ] as const;

  for (const [mode, cases] of modes) {
    for (const vector of cases) {
      it(`${mode}: opens ${vector.name} into its plaintext`, () => {
        expect(openLegacyPayload(mode, vector.key, vector.data).toString('utf8')).toBe(vector.plaintext);
      });
    }
  }

  it('rc4: seals an answer into exactly the vector (RC4 has no IV)', () => {
    const answer = transport.rc4.find((vector) => vector.plaintext.startsWith('{'))!;
    expect(sealLegacyData('rc4', answer.key, JSON.parse(answer.plaintext))).toBe(answer.data);
  });
});
