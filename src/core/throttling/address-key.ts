import { BlockList, isIP } from 'node:net';
import { networkOf, plainAddress } from '../net/ip-network';

const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * The client address as every per-address limit counts it. One IPv6 subscriber usually holds a
 * whole /64 and may use any of its 2^64 addresses, one per request; so an IPv6 address counts by its
 * network of `ipv6Prefix` bits (`RATE_LIMIT_IPV6_PREFIX`, default 64). An IPv4 address, written
 * IPv4-mapped in IPv6 or not, counts by itself. Anything else is its own key, unchanged.
 */
export function addressKey(address: string, ipv6Prefix: number): string {
  const plain = plainAddress(address);
  const version = isIP(plain);
  if (version === 0) return plain;
  if (version === 4 || IPV4_MAPPED.check(plain, 'ipv6')) return plain.toLowerCase();
  return `${networkOf(plain, 6, ipv6Prefix)}/${ipv6Prefix}`;
}
