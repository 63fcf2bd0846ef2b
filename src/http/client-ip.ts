import { isIP } from 'node:net';

type AnyRequest = {
  ip?: string;
  socket?: { remoteAddress?: string; encrypted?: boolean };
  raw?: AnyRequest;
  headers?: Record<string, unknown>;
};

/**
 * The caller's address: the socket peer, or the nearest untrusted hop of X-Forwarded-For when the
 * peer is one of the configured proxies. Never a body field or an unverified header.
 */
export function clientIpOf(req: unknown, trustedProxies: ReadonlySet<string>): string {
  const r = req as AnyRequest;
  const socketIp = normalize((r.raw ?? r).socket?.remoteAddress ?? '');
  if (!trustedProxies.has(socketIp)) return socketIp;
  const header = (r.raw ?? r).headers?.['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : String(header ?? ''))
    .split(',')
    .map((h) => normalize(h.trim()))
    .filter((h) => isIP(h));
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedProxies.has(hops[i])) return hops[i];
  return socketIp;
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

function normalize(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
