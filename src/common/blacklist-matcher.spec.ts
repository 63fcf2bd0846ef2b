import { BlacklistMatcher, CachedBlacklistEntry, normalizeAddressEntry } from './blacklist-matcher';

const NOW = Date.UTC(2026, 10, 20);
let nextId = 1;
const entry = (kind: CachedBlacklistEntry['kind'], value: string, expiresAt: number | null = null): CachedBlacklistEntry => ({
  id: nextId++,
  kind,
  value,
  note: null,
  expiresAt,
});

describe(BlacklistMatcher.name, () => {
  it('refuses a blacklisted device code, and only that one', () => {
    const matcher = new BlacklistMatcher([entry('device', 'PC-A')]);
    expect(matcher.match('10.0.0.1', 'PC-A', NOW)?.value).toBe('PC-A');
    expect(matcher.match('10.0.0.1', 'pc-a', NOW)).toBeNull();
    expect(matcher.match('10.0.0.1', undefined, NOW)).toBeNull();
  });

  it('matches single addresses and CIDR blocks of both versions, IPv4-mapped addresses as IPv4', () => {
    const matcher = new BlacklistMatcher([
      entry('address', '203.0.113.7'),
      entry('address', '198.51.100.0/24'),
      entry('address', '2001:db8::/32'),
    ]);
    expect(matcher.match('203.0.113.7', undefined, NOW)?.value).toBe('203.0.113.7');
    expect(matcher.match('::ffff:203.0.113.7', undefined, NOW)?.value).toBe('203.0.113.7');
    expect(matcher.match('198.51.100.200', undefined, NOW)?.value).toBe('198.51.100.0/24');
    expect(matcher.match('198.51.101.1', undefined, NOW)).toBeNull();
    expect(matcher.match('2001:db8:ffff::1', undefined, NOW)?.value).toBe('2001:db8::/32');
    expect(matcher.match('2001:db9::1', undefined, NOW)).toBeNull();
    expect(matcher.match('not an address', undefined, NOW)).toBeNull();
  });

  it('ignores an expired entry but still finds a live one covering the same address', () => {
    const matcher = new BlacklistMatcher([entry('address', '192.0.2.0/24', NOW - 1), entry('device', 'PC-B', NOW - 1)]);
    expect(matcher.match('192.0.2.9', 'PC-B', NOW)).toBeNull();
    const both = new BlacklistMatcher([entry('address', '192.0.2.0/24', NOW - 1), entry('address', '192.0.2.9', NOW + 60_000)]);
    expect(both.match('192.0.2.9', undefined, NOW)?.value).toBe('192.0.2.9');
  });
});

describe(normalizeAddressEntry.name, () => {
  it('writes an address or a block one way, host bits cleared', () => {
    expect(normalizeAddressEntry(' 198.51.100.77/24 ')).toBe('198.51.100.0/24');
    expect(normalizeAddressEntry('2001:DB8:0:0:1::5/64')).toBe('2001:db8::/64');
    expect(normalizeAddressEntry('2001:db8::1/128')).toBe('2001:db8::1');
    expect(normalizeAddressEntry('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normalizeAddressEntry('10.0.0.0/33')).toBeNull();
    expect(normalizeAddressEntry('example.com')).toBeNull();
    expect(normalizeAddressEntry('10.0.0.1/8/2')).toBeNull();
  });
});
