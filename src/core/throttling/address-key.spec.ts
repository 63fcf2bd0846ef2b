import { addressKey } from './address-key';

describe('addressKey', () => {
  it('counts an IPv6 address by its /64 by default: rotating inside the network gives one key', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:DB8:1:2:a:b:c:d'].map((ip) => addressKey(ip, 64));
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(addressKey('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
  });

  it('follows the configured prefix, 128 being each address in one spelling', () => {
    expect(addressKey('2001:db8:1:2:3::1', 48)).toBe('2001:db8:1::/48');
    expect(addressKey('2001:db8:1:2:3::1', 56)).toBe('2001:db8:1::/56');
    expect(addressKey('2001:db8:1:2:3::1', 128)).toBe('2001:db8:1:2:3::1/128');
    expect(addressKey('2001:DB8:0:0::1', 128)).toBe(addressKey('2001:db8::1', 128));
    expect(addressKey('2001:db8::1', 128)).not.toBe(addressKey('2001:db8::2', 128));
  });

  it('keeps IPv4 per address, IPv4-mapped IPv6 in either spelling included', () => {
    expect(addressKey('198.51.100.20', 64)).toBe('198.51.100.20');
    expect(addressKey('::ffff:198.51.100.20', 64)).toBe('198.51.100.20');
    expect(addressKey('::ffff:c633:6414', 64)).toBe('::ffff:c633:6414');
    expect(addressKey('::ffff:c633:6415', 64)).not.toBe(addressKey('::ffff:c633:6414', 64));
  });

  it('leaves what is not an address as it is (a scope name in a unit test, an empty address outside a request)', () => {
    expect(addressKey('ip:a', 64)).toBe('ip:a');
    expect(addressKey('', 64)).toBe('');
  });
});
