import { clientIpOf, parseTrustedProxies } from './client-ip';

const NONE = new Set<string>();
const PROXY = '10.0.0.1';
const TRUSTED = parseTrustedProxies(`${PROXY}, 10.0.0.2`);

function req(remoteAddress: string, xff?: string | string[]) {
  return { socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } };
}

describe('clientIpOf', () => {
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

  it('skips entries that are not IP addresses', () => {
    expect(clientIpOf(req(PROXY, '198.51.100.9, not-an-ip, unknown'), TRUSTED)).toBe('198.51.100.9');
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

describe('parseTrustedProxies', () => {
  it('splits, trims, normalises and drops empty entries', () => {
    expect([...parseTrustedProxies(' 10.0.0.1 ,::ffff:10.0.0.2,,')]).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(parseTrustedProxies('').size).toBe(0);
  });
});
