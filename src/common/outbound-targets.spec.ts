import { embeddedIPv4, ipv6Groups, isPublicAddress, NOT_PUBLIC, resolvePublic } from './outbound-targets';

describe('webhook targets', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.7',
    '169.254.169.254',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1', // the same, as the URL parser writes it
    '::127.0.0.1', // IPv4-compatible
    '::ffff:0:127.0.0.1', // IPv4-translated
    '::ffff:0:7f00:1',
    '64:ff9b::10.0.0.1', // NAT64
    '64:ff9b:1::a00:1',
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    'fec0::1', // site-local
    'fe80::1%eth0',
    'fd00::1',
    '::8.8.8.8', // IPv4-compatible, deprecated: refused whatever it carries
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '64:ff9b::8.8.8.8'])(
    'lets %s through',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('reads the groups of compressed, full and dotted IPv6 forms alike', () => {
    expect(ipv6Groups('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups('2002:7f00:1::')).toEqual([0x2002, 0x7f00, 1, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('10.0.0.1')).toBeNull();
    expect(embeddedIPv4(ipv6Groups('2002:7f00:1::')!)).toBe('127.0.0.1');
    expect(embeddedIPv4(ipv6Groups('2606:4700:4700::1111')!)).toBeNull();
  });

  it('gives one reason, with no address, for a private literal, a private name and a name that does not resolve', async () => {
    const reasons: string[] = [];
    for (const host of ['[::ffff:127.0.0.1]', 'localhost', 'no-such-host.invalid']) {
      const refused = (await resolvePublic(host, false).catch((error: Error) => error)) as Error;
      reasons.push(refused.message);
    }
    expect(reasons).toEqual([NOT_PUBLIC, NOT_PUBLIC, NOT_PUBLIC]);
    expect(await resolvePublic('[::ffff:127.0.0.1]', true)).toEqual([{ address: '::ffff:127.0.0.1', family: 6 }]);
  });
});
