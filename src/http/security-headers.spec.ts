import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { applySecurityHeaders, helmetHeaders, securityHeaderFields } from './security-headers';

function response(): ServerResponse {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  res.setHeader('X-Powered-By', 'Express'); // as Express sets it before any middleware
  return res;
}

describe('security headers', () => {
  it('are what helmet itself puts on an answer, X-Powered-By removed', async () => {
    const { default: helmet } = await import('helmet');
    const byHelmet = response();
    await new Promise<void>((resolve) =>
      helmet({ contentSecurityPolicy: false })({} as never, byHelmet as never, () => resolve()),
    );
    const byUs = response();
    applySecurityHeaders(await helmetHeaders(), byUs);

    expect(byUs.getHeaders()).toEqual(byHelmet.getHeaders());
    expect(byUs.getHeader('x-powered-by')).toBeUndefined();
    expect(byUs.getHeader('x-content-type-options')).toBe('nosniff');
    expect(byUs.getHeader('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(byUs.getHeader('content-security-policy')).toBeUndefined(); // the console sets its own
  });

  it("as one object for Fastify's reply: helmet's headers by lower-case name, fixed", async () => {
    const { default: helmet } = await import('helmet');
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    await new Promise<void>((resolve) => helmet({ contentSecurityPolicy: false })({} as never, res as never, () => resolve()));
    const fields = securityHeaderFields(await helmetHeaders());
    expect(fields).toEqual(res.getHeaders());
    expect(Object.isFrozen(fields)).toBe(true);
  });
});
