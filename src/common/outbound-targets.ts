import { lookup } from 'node:dns/promises';
import { BlockList, isIP, LookupFunction } from 'node:net';

/**
 * Addresses the service's own outbound calls to an address an author chose (a webhook, a payment
 * gateway's API) may not reach unless the platform allows private targets (decisions §20):
 * loopback, private, link-local, shared, benchmark, multicast and reserved ranges, in IPv4 and
 * IPv6. An IPv6 address that carries an IPv4 one (mapped, compatible, translated, NAT64, 6to4) is
 * judged by the IPv4 address it carries; Teredo hides its IPv4 addresses and is refused whole.
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
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['100::', 64],
  ['2001::', 32], // Teredo
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // site-local, deprecated but still routed by some stacks
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (with or without a dotted IPv4 tail), or null. */
export function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 ? groups : null;
}

/** The IPv4 address an IPv6 one carries in a form that reaches it (mapped, compatible, translated, NAT64, 6to4), or null. */
export function embeddedIPv4(groups: number[]): string | null {
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return v4(groups[6], groups[7]); // ::ffff:a.b.c.d, ::a.b.c.d
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return v4(groups[6], groups[7]); // ::ffff:0:a.b.c.d
  if (groups[0] === 0x64 && groups[1] === 0xff9b && (zeros(2, 6) || groups[2] === 1)) return v4(groups[6], groups[7]); // NAT64
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]); // 6to4
  return null;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  const groups = family === 6 ? ipv6Groups(address) : null;
  if (!groups || NON_PUBLIC.check(address.replace(/%.*$/, ''), 'ipv6')) return false;
  const carried = embeddedIPv4(groups);
  return carried === null || isPublicAddress(carried);
}

/**
 * Why a target is refused. "Private" and "does not resolve" are one reason with no address, so the
 * refusal (and the delivery log) cannot be used to map which internal names exist and where.
 */
export class TargetRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export const NOT_PUBLIC = 'the host does not resolve to a public address';

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
export async function resolvePublic(host: string, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  try {
    addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true });
  } catch {
    throw new TargetRefused(NOT_PUBLIC);
  }
  if (addresses.length === 0 || (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address))))
    throw new TargetRefused(NOT_PUBLIC);
  return addresses;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * A lookup that answers only the addresses already checked, for the connection that follows the
 * check: a name that resolves to a public address when checked cannot reach a private one when
 * connected (DNS rebinding), and an IP literal is held to the same rule.
 */
export function pinnedLookup(checked: ResolvedAddress[]): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, checked);
    else callback(null, checked[0].address, checked[0].family);
  };
}
