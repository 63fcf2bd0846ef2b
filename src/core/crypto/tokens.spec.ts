import { createHash } from 'node:crypto';
import { constantTimeEqual, hashToken, newToken, randomString } from './tokens';

describe('newToken', () => {
  it('is 32 random bytes as 43 base64url characters', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('is unique, across many refills of the random pool (64 tokens each)', () => {
    const tokens = Array.from({ length: 1000 }, newToken);
    expect(new Set(tokens).size).toBe(1000);
    // No 8-byte run of one token reappears in another: each pool byte serves one token only.
    const runs = new Set(
      tokens.flatMap((token) => [0, 8, 16, 24].map((at) => Buffer.from(token, 'base64url').toString('hex', at, at + 8))),
    );
    expect(runs.size).toBe(4000);
  });
});

describe('hashToken', () => {
  it('is the SHA-256 hex digest of the token', () => {
    const token = newToken();
    expect(hashToken(token)).toBe(createHash('sha256').update(token, 'utf8').digest('hex'));
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('differs from the token and between tokens', () => {
    const [a, b] = [newToken(), newToken()];
    expect(hashToken(a)).not.toBe(a);
    expect(hashToken(a)).not.toBe(hashToken(b));
  });
});

describe('constantTimeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['', '', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['ab', 'abc', false],
    ['abc', 'ABC', false],
    ['é', 'e', false],
  ])('%p vs %p → %p', (a, b, expected) => {
    expect(constantTimeEqual(a, b)).toBe(expected);
  });
});

describe('randomString', () => {
  const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

  it.each([0, 1, 16, 64])('has exactly the given length %i', (length) => {
    expect(randomString(length, ALPHABET)).toHaveLength(length);
  });

  it('uses only the alphabet, and all of it over many draws', () => {
    const sample = randomString(5000, ALPHABET);
    const used = new Set(sample);
    for (const ch of used) expect(ALPHABET).toContain(ch);
    expect(used.size).toBe(ALPHABET.length);
  });

  it('is random', () => {
    expect(randomString(32, ALPHABET)).not.toBe(randomString(32, ALPHABET));
  });

  it('works with a one-letter alphabet', () => {
    expect(randomString(5, 'x')).toBe('xxxxx');
  });
});
