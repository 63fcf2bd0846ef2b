import { BlockList, isIP, isIPv4 } from 'node:net';
import { networkOf, plainAddress } from '../core/net/ip-network';

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
