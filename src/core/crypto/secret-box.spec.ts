import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const KEY = randomBytes(32);

function tamper(stored: string, part: 1 | 2 | 3, change: (bytes: Buffer) => Buffer): string {
  const parts = stored.split('.');
  parts[part] = change(Buffer.from(parts[part], 'base64url')).toString('base64url');
  return parts.join('.');
}

const flipFirstBit = (b: Buffer) => {
  const copy = Buffer.from(b);
  copy[0] ^= 1;
  return copy;
};

describe('SecretBox', () => {
  const box = new SecretBox(KEY);

  it.each(['s3cret-signing-key', '', 'ünïcödé ✓ 密钥', 'x'.repeat(10_000)])('round-trips %p', (plain) => {
    expect(box.decrypt(box.encrypt(plain))).toBe(plain);
  });

  it('stores v1.<iv>.<tag>.<ciphertext> without the plain text', () => {
    const stored = box.encrypt('plain-text-secret');
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain('plain-text-secret');
  });

  it('uses a random IV, so two encryptions of the same text differ', () => {
    const a = box.encrypt('same');
    const b = box.encrypt('same');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('throws on a tampered ciphertext', () => {
    expect(() => box.decrypt(tamper(box.encrypt('hello world'), 3, flipFirstBit))).toThrow();
  });

  it('throws on a tampered tag', () => {
    expect(() => box.decrypt(tamper(box.encrypt('hello world'), 2, flipFirstBit))).toThrow();
  });

  it('throws on a tampered IV', () => {
    expect(() => box.decrypt(tamper(box.encrypt('hello world'), 1, flipFirstBit))).toThrow();
  });

  it('throws on a truncated tag', () => {
    expect(() => box.decrypt(tamper(box.encrypt('hello world'), 2, (b) => b.subarray(0, 4)))).toThrow();
  });

  it('opens a stored secret again the same, and still refuses a tampered copy of one it opened', () => {
    const stored = box.encrypt('opened before');
    expect(box.decrypt(stored)).toBe('opened before');
    expect(box.decrypt(stored)).toBe('opened before');
    expect(() => box.decrypt(tamper(stored, 3, flipFirstBit))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(stored)).toThrow(); // another key opens nothing
  });

  it('throws with the wrong key', () => {
    expect(() => new SecretBox(randomBytes(32)).decrypt(box.encrypt('hello'))).toThrow();
  });

  it.each(['', 'plain', 'v2.a.b.c', 'v1.a.b'])('throws on the malformed value %p', (stored) => {
    expect(() => box.decrypt(stored)).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('32-byte');
  });

  describe('parseKey', () => {
    it('reads 64 hex characters', () => {
      expect(SecretBox.parseKey(KEY.toString('hex'))).toEqual(KEY);
      expect(SecretBox.parseKey(KEY.toString('hex').toUpperCase())).toEqual(KEY);
    });

    it('reads base64 and base64url', () => {
      expect(SecretBox.parseKey(KEY.toString('base64'))).toEqual(KEY);
      expect(SecretBox.parseKey(KEY.toString('base64url'))).toEqual(KEY);
    });

    it('yields a key that decrypts what the original key encrypted', () => {
      const stored = box.encrypt('shared');
      expect(new SecretBox(SecretBox.parseKey(KEY.toString('base64'))).decrypt(stored)).toBe('shared');
    });
  });
});
