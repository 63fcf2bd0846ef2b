import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { rc4 } from './rc4';
import { openLegacyPayload, sealLegacyData } from './transport-codec';

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
    expect(openLegacyPayload('aes', 'tk', data)).toEqual({ api: 'notice', x: 'a b' });
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
