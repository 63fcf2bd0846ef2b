/**
 * Address arithmetic shared by the login blacklist, API keys' CIDRs and the per-address limits:
 * plain text rules with no framework, so every layer may use them.
 */

/** An address as it is compared: an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is its IPv4. */
export function plainAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1] : trimmed;
}

/** The network of a valid address with its first `prefix` bits kept, in one spelling (RFC 5952 for IPv6). */
export function networkOf(address: string, version: 4 | 6, prefix: number): string {
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
