import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless the platform allows private targets (decisions §20):
 * loopback, private, link-local, shared, benchmark, multicast and reserved ranges, in IPv4 and
 * IPv6 (IPv4-mapped IPv6 is checked as the IPv4 address it carries).
 */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class TargetRefused extends Error {
  constructor(
    readonly reason: string,
    readonly address?: string,
  ) {
    super(reason);
  }
}

/** The host of an http(s) URL without IPv6 brackets; refuses anything else. */
export function targetHost(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused('not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TargetRefused('only http and https URLs');
  if (parsed.username || parsed.password) throw new TargetRefused('credentials in the URL are not accepted');
  return parsed;
}

/**
 * Every address `host` resolves to, each checked: one private address among public ones is enough
 * to refuse, since the connection may go to any of them.
 */
export async function resolvePublic(host: string, allowPrivate: boolean): Promise<Array<{ address: string; family: number }>> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true });
  } catch {
    throw new TargetRefused('the host does not resolve');
  }
  if (addresses.length === 0) throw new TargetRefused('the host does not resolve');
  if (!allowPrivate) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) throw new TargetRefused('the host resolves to a private or loopback address', blocked.address);
  }
  return addresses;
}
