import { clientAddressOf, forwardedAddress, parseTrustedProxies } from './client-ip';

const NONE = new Set<string>();
const PROXY = '10.0.0.1';
const TRUSTED = parseTrustedProxies(`${PROXY}, 10.0.0.2`);

const clientIpOf = (request: unknown, trusted: ReadonlySet<string>) => {
  const client = clientAddressOf(request, trusted);
  expect(client.unreadable).toBeUndefined();
  return client.ip;
};

function req(remoteAddress: string, xff?: string | string[]) {
  return { socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } };
}

describe('clientAddressOf', () => {
  it('uses the socket address by default', () => {
    expect(clientIpOf(req('203.0.113.7'), NONE)).toBe('203.0.113.7');
  });

  it('strips the ::ffff: prefix of IPv4-mapped addresses', () => {
    expect(clientIpOf(req('::ffff:203.0.113.7'), NONE)).toBe('203.0.113.7');
  });

  it('keeps a real IPv6 address', () => {
    expect(clientIpOf(req('2001:db8::1'), NONE)).toBe('2001:db8::1');
  });

  it('ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientIpOf(req('203.0.113.7', '198.51.100.9'), NONE)).toBe('203.0.113.7');
  });

  it('ignores a forged X-Forwarded-For from an untrusted peer even when proxies are configured', () => {
    expect(clientIpOf(req('203.0.113.7', `198.51.100.9, ${PROXY}`), TRUSTED)).toBe('203.0.113.7');
  });

  it('takes the forwarded client when the peer is a trusted proxy', () => {
    expect(clientIpOf(req(PROXY, '198.51.100.9'), TRUSTED)).toBe('198.51.100.9');
  });

  it('takes the right-most untrusted hop, not a client-supplied left-most one', () => {
    expect(clientIpOf(req(PROXY, '1.1.1.1, 198.51.100.9, 10.0.0.2'), TRUSTED)).toBe('198.51.100.9');
  });

  it('recognises a trusted proxy behind the ::ffff: prefix', () => {
    expect(clientIpOf(req(`::ffff:${PROXY}`, '::ffff:198.51.100.9'), TRUSTED)).toBe('198.51.100.9');
  });

  it('joins repeated X-Forwarded-For headers', () => {
    expect(clientIpOf(req(PROXY, ['1.1.1.1', '198.51.100.9']), TRUSTED)).toBe('198.51.100.9');
  });

  it('takes a hop with a port by its address', () => {
    expect(clientIpOf(req(PROXY, '203.0.113.7:4321'), TRUSTED)).toBe('203.0.113.7');
    expect(clientIpOf(req(PROXY, '[2001:db8::1]:4321'), TRUSTED)).toBe('2001:db8::1');
    expect(clientIpOf(req(PROXY, '[2001:DB8::1]'), TRUSTED)).toBe('2001:db8::1');
    expect(clientIpOf(req(PROXY, '[::ffff:198.51.100.9]:80, 10.0.0.2:443'), TRUSTED)).toBe('198.51.100.9');
  });

  it("refuses a trusted proxy's header whose client hop is not an address, instead of taking the proxy for the client", () => {
    for (const header of [
      'unknown',
      'not-an-ip',
      '203.0.113.7:99999',
      '203.0.113.7:',
      '[203.0.113.7]:80',
      '2001:db8::1:',
      '1.2.3.4, ',
      'a, 10.0.0.2',
    ])
      expect(clientAddressOf(req(PROXY, header), TRUSTED)).toEqual({
        ip: PROXY,
        unreadable: expect.stringContaining('X-Forwarded-For'),
      });
  });

  it('never reads what the client wrote left of its own hop', () => {
    expect(clientIpOf(req(PROXY, 'junk, unknown, 198.51.100.9'), TRUSTED)).toBe('198.51.100.9');
  });

  it('reads no header from a peer that is not a trusted proxy, junk included', () => {
    expect(clientAddressOf(req('203.0.113.7', 'unknown'), TRUSTED)).toEqual({ ip: '203.0.113.7' });
  });

  it('falls back to the proxy address when every hop is trusted or the header is missing', () => {
    expect(clientIpOf(req(PROXY, '10.0.0.2'), TRUSTED)).toBe(PROXY);
    expect(clientIpOf(req(PROXY), TRUSTED)).toBe(PROXY);
  });

  it('reads a Fastify request through raw', () => {
    const fastifyRequest = { ip: '6.6.6.6', raw: req(PROXY, '198.51.100.9') };
    expect(clientIpOf(fastifyRequest, TRUSTED)).toBe('198.51.100.9');
    expect(clientIpOf({ ip: '6.6.6.6', raw: req('203.0.113.7') }, NONE)).toBe('203.0.113.7');
  });
});

describe('forwardedAddress', () => {
  it('reads an address with or without its port, and nothing else', () => {
    expect(forwardedAddress(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(forwardedAddress('203.0.113.7:65535')).toBe('203.0.113.7');
    expect(forwardedAddress('[2001:db8::1]:1')).toBe('2001:db8::1');
    expect(forwardedAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(forwardedAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    for (const junk of [
      '',
      'unknown',
      '_hidden',
      '203.0.113.7:65536',
      '203.0.113:80',
      '[203.0.113.7]',
      '[2001:db8::1]x',
      'for=1.2.3.4',
    ])
      expect(forwardedAddress(junk)).toBeNull();
  });
});

describe('parseTrustedProxies', () => {
  it('splits, trims, normalises and drops empty entries', () => {
    expect([...parseTrustedProxies(' 10.0.0.1 ,::ffff:10.0.0.2,,')]).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(parseTrustedProxies('').size).toBe(0);
  });
});
