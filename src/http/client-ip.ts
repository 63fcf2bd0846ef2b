import { isIP } from 'node:net';

type AnyRequest = {
  ip?: string;
  socket?: { remoteAddress?: string; encrypted?: boolean };
  raw?: AnyRequest;
  headers?: Record<string, unknown>;
};

/** Who sent a request, as far as the socket and the trusted proxies tell. */
export interface ClientAddress {
  /** The caller's address; the proxy's own when `unreadable` is set (for the access log only). */
  ip: string;
  /**
   * Why a trusted proxy's X-Forwarded-For names no client (a hop that is not an address): the
   * request is refused with BAD_REQUEST (input-boundary.guard.ts) rather than taken as the proxy's,
   * which would lift the client's blacklist entries and share the proxy's per-address limits.
   */
  unreadable?: string;
}

/**
 * The caller's address: the socket peer, or the nearest untrusted hop of X-Forwarded-For when the
 * peer is one of the configured proxies. Never a body field or an unverified header. Hops are read
 * from the nearest: each trusted proxy's hop is passed over, and the first other one is the client,
 * which must be an address (`IPv4`, `IPv4:port`, `IPv6`, `[IPv6]`, `[IPv6]:port`); hops further
 * left were written by the client and are never read. A request with no X-Forwarded-For at all, or
 * with trusted hops only, is the proxy's own.
 */
export function clientAddressOf(req: unknown, trustedProxies: ReadonlySet<string>): ClientAddress {
  const r = (req as AnyRequest).raw ?? (req as AnyRequest);
  const socketIp = normalize(r.socket?.remoteAddress ?? '');
  if (!trustedProxies.has(socketIp)) return { ip: socketIp };
  const header = r.headers?.['x-forwarded-for'];
  const joined = Array.isArray(header) ? header.join(',') : String(header ?? '');
  if (!joined.trim()) return { ip: socketIp };
  const hops = joined.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = forwardedAddress(hops[i]);
    if (hop === null)
      return { ip: socketIp, unreadable: 'X-Forwarded-For from a trusted proxy has a hop that is not an address' };
    if (!trustedProxies.has(hop)) return { ip: hop };
  }
  return { ip: socketIp };
}

/** The address of one X-Forwarded-For hop, its port dropped; null when the hop is not an address. */
export function forwardedAddress(hop: string): string | null {
  const text = hop.trim();
  if (isIP(text)) return normalize(text);
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) return isIP(bracketed[1]) === 6 && validPort(bracketed[2]) ? normalize(bracketed[1]) : null;
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(text);
  if (withPort) return isIP(withPort[1]) === 4 && validPort(withPort[2]) ? withPort[1] : null;
  return null;
}

function validPort(port: string | undefined): boolean {
  return port === undefined || Number(port) <= 65535;
}

/**
 * Whether the request reached the service over HTTPS: on a TLS socket of its own, or from a
 * configured proxy whose nearest `X-Forwarded-Proto` says `https` (anyone else may say anything).
 */
export function arrivedOverTls(req: unknown, trustedProxies: ReadonlySet<string>): boolean {
  const r = (req as AnyRequest).raw ?? (req as AnyRequest);
  if (r.socket?.encrypted) return true;
  if (!trustedProxies.has(normalize(r.socket?.remoteAddress ?? ''))) return false;
  const header = r.headers?.['x-forwarded-proto'];
  const protocols = (Array.isArray(header) ? header.join(',') : String(header ?? '')).split(',');
  return protocols[protocols.length - 1].trim().toLowerCase() === 'https';
}

export function parseTrustedProxies(value: string): Set<string> {
  return new Set(
    value
      .split(',')
      .map((v) => normalize(v.trim()))
      .filter(Boolean),
  );
}

/** One spelling per address for comparisons: IPv4-mapped IPv6 as its IPv4, IPv6 in lower case. */
function normalize(ip: string): string {
  const lower = ip.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}
