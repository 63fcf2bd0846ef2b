import {
  authorizingSite,
  blockingDomainsFor,
  isHostname,
  isSitePattern,
  normalizeHostname,
  normalizeIp,
  SiteCandidate,
  siteMatches,
  sitePatternsFor,
} from './domain-rules';

describe('domain rules of licence-file verification', () => {
  describe('isHostname', () => {
    it.each([
      'example.com',
      'a.b.example.com',
      'localhost',
      'xn--bcher-kva.example',
      'A-1.Example.COM',
      '10.0.0.1',
      `${'a'.repeat(63)}.com`,
    ])('accepts %s', (value) => expect(isHostname(value)).toBe(true));
    it.each([
      '',
      '-a.com',
      'a-.com',
      'a..com',
      '.a.com',
      'a.com.',
      'a_b.com',
      'a b.com',
      '*.example.com',
      'http://a.com',
      'a.com:80',
      `${'a'.repeat(64)}.com`,
    ])('refuses %p', (value) => expect(isHostname(value)).toBe(false));
    it('refuses a name longer than 253 characters', () => {
      const name = Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.'); // 255
      expect(isHostname(name)).toBe(false);
      expect(isHostname(name.slice(2))).toBe(true); // 253
    });
  });

  describe('isSitePattern', () => {
    it.each(['example.com', '*.example.com', '*.a.b.example.com', 'localhost'])('accepts %s', (value) =>
      expect(isSitePattern(value)).toBe(true),
    );
    it.each(['*.com', '*', '*.', '**.example.com', 'a.*.example.com', '*example.com', 'sub.*.com', '*.-a.com'])(
      'refuses %p',
      (value) => expect(isSitePattern(value)).toBe(false),
    );
  });

  it('normalizes a hostname to lower case without one trailing dot', () => {
    expect(normalizeHostname(' WWW.Example.COM. ')).toBe('www.example.com');
    expect(normalizeHostname('example.com')).toBe('example.com');
  });

  describe('wildcard matching', () => {
    it('lists the domain itself, then each wildcard of a parent with two labels or more', () => {
      expect(sitePatternsFor('a.b.example.com')).toEqual(['a.b.example.com', '*.b.example.com', '*.example.com']);
      expect(sitePatternsFor('example.com')).toEqual(['example.com']);
      expect(sitePatternsFor('localhost')).toEqual(['localhost']);
    });

    it('matches *.example.com for sub.example.com and a.b.example.com, not example.com itself', () => {
      expect(siteMatches('*.example.com', 'sub.example.com')).toBe(true);
      expect(siteMatches('*.example.com', 'a.b.example.com')).toBe(true);
      expect(siteMatches('*.example.com', 'example.com')).toBe(false);
    });

    it('never matches a look-alike suffix', () => {
      expect(siteMatches('*.example.com', 'badexample.com')).toBe(false);
      expect(siteMatches('*.example.com', 'example.com.evil.net')).toBe(false);
      expect(siteMatches('example.com', 'www.example.com')).toBe(false);
    });
  });

  it('blocks a blacklisted domain and its subdomains, nothing else', () => {
    expect(blockingDomainsFor('a.evil.com')).toEqual(['a.evil.com', 'evil.com', 'com']);
    expect(blockingDomainsFor('notevil.com')).not.toContain('evil.com');
  });

  describe('normalizeIp', () => {
    it('keeps IPv4, unmaps IPv4-mapped IPv6 and compresses IPv6', () => {
      expect(normalizeIp('203.0.113.7')).toBe('203.0.113.7');
      expect(normalizeIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
      expect(normalizeIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
      expect(normalizeIp('::1')).toBe('::1');
    });
    it('leaves anything else as it is', () => {
      expect(normalizeIp('not-an-ip')).toBe('not-an-ip');
      expect(normalizeIp('')).toBe('');
    });
  });

  describe('authorizingSite', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const site = (domain: string, fields: Partial<SiteCandidate> = {}): SiteCandidate => ({
      domain,
      licence: null,
      expiresAt: null,
      ...fields,
    });

    it('prefers the exact site over a wildcard, and the closer wildcard over the farther', () => {
      const sites = [site('*.example.com'), site('*.b.example.com'), site('a.b.example.com')];
      expect(authorizingSite(sites, 'a.b.example.com', undefined, now)?.domain).toBe('a.b.example.com');
      expect(authorizingSite(sites.slice(0, 2), 'a.b.example.com', undefined, now)?.domain).toBe('*.b.example.com');
    });

    it('skips an expired site (expiry at or before now) and keeps one expiring later', () => {
      expect(authorizingSite([site('x.com', { expiresAt: now })], 'x.com', undefined, now)).toBeNull();
      expect(authorizingSite([site('x.com', { expiresAt: new Date(now.getTime() + 1) })], 'x.com', undefined, now)?.domain).toBe(
        'x.com',
      );
    });

    it('needs the licence of a site that has one, and ignores a licence sent to a site without one', () => {
      const licensed = [site('x.com', { licence: 'LIC-1' })];
      expect(authorizingSite(licensed, 'x.com', undefined, now)).toBeNull();
      expect(authorizingSite(licensed, 'x.com', 'LIC-2', now)).toBeNull();
      expect(authorizingSite(licensed, 'x.com', 'lic-1', now)).toBeNull();
      expect(authorizingSite(licensed, 'x.com', 'LIC-1', now)?.domain).toBe('x.com');
      expect(authorizingSite([site('x.com')], 'x.com', 'anything', now)?.domain).toBe('x.com');
    });

    it('falls back to a usable wildcard when the exact site is expired', () => {
      const sites = [site('a.example.com', { expiresAt: new Date(0) }), site('*.example.com')];
      expect(authorizingSite(sites, 'a.example.com', undefined, now)?.domain).toBe('*.example.com');
    });

    it('authorizes nothing that does not match', () => {
      expect(authorizingSite([site('*.example.com'), site('other.com')], 'example.com', undefined, now)).toBeNull();
    });
  });
});
