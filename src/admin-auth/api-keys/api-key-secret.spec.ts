import { createHash } from 'node:crypto';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { API_KEY_PATTERN, apiKeyPrefix, ApiKeyHasher, newApiKey } from './api-key-secret';

describe('API key secrets', () => {
  it('draws ck_ and 40 base62 characters, never the same twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, newApiKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
    // Every base62 character turns up: the alphabet is used whole.
    expect(new Set([...keys].join('').slice(0, 40_000).replace(/ck_/g, '')).size).toBe(62);
  });

  it('keeps a hash keyed by the encryption key: not a plain SHA-256, another key gives another hash', () => {
    const key = newApiKey();
    const one = new ApiKeyHasher(Buffer.alloc(32, 1));
    expect(one.hash(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(one.hash(key)).toBe(new ApiKeyHasher(Buffer.alloc(32, 1)).hash(key));
    expect(one.hash(key)).not.toBe(new ApiKeyHasher(Buffer.alloc(32, 2)).hash(key));
    expect(one.hash(key)).not.toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('shows ck_ and 8 characters for recognition', () => {
    expect(apiKeyPrefix('ck_AbCdEfGh0123456789012345678901234567890')).toBe('ck_AbCdEfGh');
  });

  it('allows an address within the CIDRs (IPv4-mapped IPv6 as IPv4), any address without them', () => {
    expect(ApiKeyAuthenticator.allows(null, '203.0.113.9')).toBe(true);
    const cidrs = ['198.51.100.0/24', '2001:db8::/32', '192.0.2.7'];
    expect(ApiKeyAuthenticator.allows(cidrs, '198.51.100.255')).toBe(true);
    expect(ApiKeyAuthenticator.allows(cidrs, '::ffff:198.51.100.1')).toBe(true);
    expect(ApiKeyAuthenticator.allows(cidrs, '2001:db8:ffff::1')).toBe(true);
    expect(ApiKeyAuthenticator.allows(cidrs, '192.0.2.7')).toBe(true);
    expect(ApiKeyAuthenticator.allows(cidrs, '192.0.2.8')).toBe(false);
    expect(ApiKeyAuthenticator.allows(cidrs, '198.51.101.1')).toBe(false);
    expect(ApiKeyAuthenticator.allows(cidrs, '')).toBe(false);
  });
});
