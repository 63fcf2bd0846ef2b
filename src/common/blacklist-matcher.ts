import { BlockList, isIP, isIPv4 } from 'node:net';

export const LOGIN_BLACKLIST_KINDS = ['device', 'address'] as const;
export type LoginBlacklistKind = (typeof LOGIN_BLACKLIST_KINDS)[number];

/** An entry as the hot cache keeps it (JSON-safe): `value` is a device code, an address or a CIDR block. */
export interface CachedBlacklistEntry {
  id: number;
  kind: LoginBlacklistKind;
  value: string;
  note: string | null;
  /** Epoch milliseconds; null = for good. */
  expiresAt: number | null;
}

/** An address as the matcher compares it: an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is its IPv4. */
export function plainAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1] : trimmed;
}

/**
 * `value` of an address entry in one spelling: a single address, or `address/prefix` with the
 * host bits cleared; null when it is neither. Uses Node's own `net.BlockList` parser rules.
 */
export function normalizeAddressEntry(value: string): string | null {
  const [rawAddress, rawPrefix, extra] = value.trim().split('/');
  if (extra !== undefined) return null;
  const address = plainAddress(rawAddress);
  const version = isIP(address);
  if (!version) return null;
  const bits = version === 4 ? 32 : 128;
  if (rawPrefix === undefined) return address.toLowerCase();
  if (!/^\d{1,3}$/.test(rawPrefix) || Number(rawPrefix) > bits) return null;
  const prefix = Number(rawPrefix);
  if (prefix === bits) return address.toLowerCase();
  return `${networkOf(address, version as 4 | 6, prefix)}/${prefix}`;
}

function networkOf(address: string, version: 4 | 6, prefix: number): string {
  const bytes = version === 4 ? address.split('.').map(Number) : ipv6Bytes(address);
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    bytes[i] &= (0xff << (8 - keep)) & 0xff;
  }
  if (version === 4) return bytes.join('.');
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return compressIpv6(groups);
}

function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = text.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((group) => {
    const n = parseInt(group, 16);
    return [n >> 8, n & 0xff];
  });
}

/** RFC 5952: the longest run of zero groups (two or more) becomes `::`. */
function compressIpv6(groups: string[]): string {
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  if (best.length < 2) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}

/**
 * A project's login blacklist compiled for matching in memory: device codes in a map, every address
 * and block in one `net.BlockList` (the common case, no entry matching, is one map lookup and one
 * check). Expiry is judged at match time, so a cached list needs no refresh when an entry lapses.
 */
export class BlacklistMatcher {
  private readonly devices = new Map<string, CachedBlacklistEntry>();
  private readonly addresses: Array<{ entry: CachedBlacklistEntry; list: BlockList }> = [];
  private readonly anyAddress = new BlockList();

  constructor(entries: readonly CachedBlacklistEntry[]) {
    for (const entry of entries) {
      if (entry.kind === 'device') {
        this.devices.set(entry.value, entry);
        continue;
      }
      const list = new BlockList();
      for (const target of [list, this.anyAddress]) addTo(target, entry.value);
      this.addresses.push({ entry, list });
    }
  }

  /** The live entry that refuses this device or address at `now`, device entries first; null if none. */
  match(address: string, device: string | undefined, now: number): CachedBlacklistEntry | null {
    const byDevice = device === undefined ? undefined : this.devices.get(device);
    if (byDevice && live(byDevice, now)) return byDevice;
    if (this.addresses.length === 0) return null;
    const plain = plainAddress(address);
    const family = isIPv4(plain) ? 'ipv4' : isIP(plain) ? 'ipv6' : null;
    if (!family || !this.anyAddress.check(plain, family)) return null;
    return this.addresses.find(({ entry, list }) => live(entry, now) && list.check(plain, family))?.entry ?? null;
  }
}

function live(entry: CachedBlacklistEntry, now: number): boolean {
  return entry.expiresAt === null || entry.expiresAt > now;
}

function addTo(list: BlockList, value: string): void {
  const [address, prefix] = value.split('/');
  const family = isIPv4(address) ? 'ipv4' : 'ipv6';
  if (prefix === undefined) list.addAddress(address, family);
  else list.addSubnet(address, Number(prefix), family);
}
