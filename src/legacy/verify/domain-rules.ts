import { isIP } from 'node:net';

/** Longest hostname (RFC 1035, without the trailing dot). */
export const HOSTNAME_MAX = 253;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`, 'i');

/** A hostname: dot-separated labels of letters, digits and inner hyphens, 1-63 each, 253 in all. */
export function isHostname(value: string): boolean {
  return value.length <= HOSTNAME_MAX && HOSTNAME.test(value);
}

/**
 * An authorized site's domain: a hostname, or `*.` before a hostname of at least two labels
 * (`*.example.com`; `*.com` would authorize a whole top-level domain and is refused).
 */
export function isSitePattern(value: string): boolean {
  if (!value.startsWith('*.')) return isHostname(value);
  const base = value.slice(2);
  return isHostname(base) && base.includes('.');
}

/** The form a hostname is stored and compared in: lower case, one trailing dot dropped. */
export function normalizeHostname(value: string): string {
  const lower = value.trim().toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * Every site pattern that authorizes `domain`, most specific first: the domain itself, then
 * `*.parent` for each parent of at least two labels. `*.example.com` thus matches
 * `sub.example.com` and `a.b.example.com`, never `example.com` itself.
 */
export function sitePatternsFor(domain: string): string[] {
  const labels = domain.split('.');
  const patterns = [domain];
  for (let i = 1; i <= labels.length - 2; i++) patterns.push(`*.${labels.slice(i).join('.')}`);
  return patterns;
}

/** Whether one site pattern authorizes `domain` (the rule behind sitePatternsFor). */
export function siteMatches(pattern: string, domain: string): boolean {
  return sitePatternsFor(domain).includes(pattern);
}

/** Every domain blacklist value that blocks `domain`: the domain itself and each parent domain. */
export function blockingDomainsFor(domain: string): string[] {
  const labels = domain.split('.');
  return labels.map((_, i) => labels.slice(i).join('.'));
}

/**
 * One spelling per IP address, so that a stored value and a socket address compare equal:
 * an IPv4-mapped IPv6 address becomes its IPv4 form, IPv6 is compressed and lower case.
 * Anything that is not an IP address is returned unchanged.
 */
export function normalizeIp(value: string): string {
  const ip = value.trim();
  const version = isIP(ip);
  if (version === 4) return ip;
  if (version !== 6) return ip;
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return canonical;
}

export interface SiteCandidate {
  domain: string;
  licence: string | null;
  expiresAt: Date | null;
}

/**
 * The site that authorizes a request, or null: a pattern matching `domain`, not expired at `now`,
 * whose licence (when it has one) equals the request's. The most specific pattern wins.
 */
export function authorizingSite<T extends SiteCandidate>(
  sites: readonly T[],
  domain: string,
  licence: string | undefined,
  now: Date,
  licenceEquals: (expected: string, given: string) => boolean = (a, b) => a === b,
): T | null {
  const patterns = sitePatternsFor(domain);
  const usable = sites.filter(
    (s) =>
      patterns.includes(s.domain) &&
      (s.expiresAt === null || s.expiresAt.getTime() > now.getTime()) &&
      (s.licence === null || (licence !== undefined && licenceEquals(s.licence, licence))),
  );
  usable.sort((a, b) => patterns.indexOf(a.domain) - patterns.indexOf(b.domain));
  return usable[0] ?? null;
}
