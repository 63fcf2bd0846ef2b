import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_CSP, SHOP_CSP } from '../../../src/console/console-middleware';
import { startTestApp, TestApp } from '../../support/test-app';

/** A stand-in for the Vite build (console/dist): the server's behaviour does not depend on the console's code. */
function fakeConsoleBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1a2b3c.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'app-1a2b3c.js'), `export const page = ${JSON.stringify('x'.repeat(4000))};\n`);
  writeFileSync(
    join(dir, 'portal.html'),
    '<!doctype html><title>portal</title><script type="module" src="/console/assets/portal-9z8y7x.js"></script>',
  );
  writeFileSync(
    join(dir, 'shop.html'),
    '<!doctype html><title>shop</title><script type="module" src="/console/assets/shop-5t6u7v.js"></script>',
  );
  writeFileSync(join(dir, '.source-digest'), 'not served');
  return dir;
}

/**
 * The web console is served by the service itself at /console on either adapter: the page
 * with its Content-Security-Policy, deep links falling back to the page, hashed assets cached for
 * good, `/` redirecting there — and the API, its 404 envelope and its OpenAPI document unchanged.
 */
describe('web console serving (e2e)', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = fakeConsoleBuild();
    t = await startTestApp({ CONSOLE_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the page at /console/ with a CSP that allows no inline script, revalidated on every load', async () => {
    const res = await t.http().get('/console/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<title>console</title>');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self';/);
    expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-powered-by']).toBeUndefined();
    await t.http().get('/console/').set('If-None-Match', res.headers.etag).expect(304);
  });

  it('answers a deep link with the page, so the console opens on it', async () => {
    for (const path of ['/console/projects/0b1c/cards/7', '/console/sign-in?next=%2Fprojects', '/console/index.html']) {
      const res = await t.http().get(path).expect(200);
      expect({ path, type: res.headers['content-type'], csp: res.headers['content-security-policy'] }).toEqual({
        path,
        type: 'text/html; charset=utf-8',
        csp: CONSOLE_CSP,
      });
      expect(res.text).toContain('<title>console</title>');
    }
  });

  it('serves a hashed asset with long cache headers, gzipped when the browser accepts it', async () => {
    const res = await t.http().get('/console/assets/app-1a2b3c.js').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toContain('export const page');
    const plain = await t.http().get('/console/assets/app-1a2b3c.js').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBeGreaterThan(4000);
    const head = await t.http().head('/console/assets/app-1a2b3c.js').expect(200);
    expect(head.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('answers a missing asset or a hidden file with 404, never with the page', async () => {
    for (const path of [
      '/console/assets/gone-9z8y.js',
      '/console/.source-digest',
      '/console/favicon.ico',
      '/console/assets/..%2Findex.html',
    ]) {
      const res = await t.http().get(path);
      expect({ path, status: res.status, type: res.headers['content-type'] }).toEqual({
        path,
        status: 404,
        type: 'text/plain; charset=utf-8',
      });
    }
  });

  it('redirects / and /console to /console/', async () => {
    await t.http().get('/').expect(302).expect('Location', '/console/');
    await t.http().head('/').expect(302).expect('Location', '/console/');
    await t.http().get('/console').expect(302).expect('Location', '/console/');
    await t.http().get('/console?lang=en').expect(302).expect('Location', '/console/?lang=en');
  });

  it('leaves the API as it was: its 404 envelope with a request id, other methods, and no console path in the OpenAPI document', async () => {
    const unknown = await t.http().get('/admin/v1/nothing').expect(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
    expect(unknown.body).toMatchObject({ error: { code: 10006 }, request_id: unknown.headers['x-request-id'] });
    expect(unknown.headers['content-security-policy']).toBeUndefined();
    const post = await t.http().post('/console/').send({}).expect(404);
    expect(post.body).toMatchObject({ error: { code: 10006 }, request_id: post.headers['x-request-id'] });
    await t.http().post('/').send({}).expect(404);
    const paths = Object.keys((await t.http().get('/docs-json').expect(200)).body.paths);
    expect(paths.filter((path) => path === '/' || path.startsWith('/console'))).toEqual([]);
  });

  it('says how to build the console when it has not been built, and the API still starts', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'console-none-'));
    const bare = await startTestApp({ CONSOLE_DIR: empty });
    try {
      const res = await bare.http().get('/console/projects').expect(503);
      expect(res.text).toContain('npm run build');
      await bare.http().get('/health/live').expect(200);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
  it('serves the card-holder portal at /portal and below, with the same CSP, without touching the portal API', async () => {
    for (const path of ['/portal', '/portal/', '/portal/48213907']) {
      const res = await t.http().get(path).expect(200);
      expect(res.text).toContain('<title>portal</title>');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const api = await t.http().post('/api/v1/portal/cards/info').send({ program_id: '00000000', card_key: 'NOPE' });
    expect(api.headers['content-type']).toMatch(/application\/json/);
    expect(api.body).toMatchObject({ success: false, request_id: expect.any(String) });
    await t.http().get('/portalx').expect(404);
  });

  it('serves the storefront page at /shop/<program id> and its /return, framable by the console only, leaving the shop API and notifications to the service', async () => {
    for (const path of [
      '/shop/48213907',
      '/shop/48213907/',
      '/shop/48213907/return?checkout_id=x&token=y',
      '/shop/48213907/return/',
    ]) {
      const res = await t.http().get(path).expect(200);
      expect(res.text).toContain('<title>shop</title>');
      expect(res.headers['content-security-policy']).toBe(SHOP_CSP);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    await t.http().head('/shop/48213907').expect(200).expect('Content-Type', 'text/html; charset=utf-8');
    expect(SHOP_CSP).toContain("frame-ancestors 'self'");
    expect(SHOP_CSP).toContain("connect-src 'self'");
    expect(SHOP_CSP).toContain("script-src 'self';");
    // The console and the portal are never framed.
    expect((await t.http().get('/console/').expect(200)).headers['x-frame-options']).toBe('DENY');
    expect((await t.http().get('/portal').expect(200)).headers['x-frame-options']).toBe('DENY');
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");

    // The API under /shop goes on to the service: its envelope, no page.
    const catalogue = await t.http().get('/shop/api/48213907').expect(404);
    expect(catalogue.body).toMatchObject({ error: { code: 10201 }, request_id: expect.any(String) });
    expect(catalogue.headers['content-security-policy']).toBeUndefined();
    const status = await t.http().get('/shop/api/checkouts/00000000-0000-4000-8000-000000000000').expect(404);
    expect(status.body).toMatchObject({ error: { code: expect.any(Number) } });
    const notify = await t.http().get('/shop/notify/epay/00000000-0000-4000-8000-000000000000');
    expect(notify.text).not.toContain('<title>shop</title>');
    expect(notify.headers['content-security-policy']).toBeUndefined();
    // Not a program id, another depth, another method: not the page.
    for (const path of ['/shop/api', '/shop/notify', '/shop/1234567', '/shop/48213907/other', '/shop/48213907/return/x'])
      expect((await t.http().get(path)).text).not.toContain('<title>shop</title>');
    await t.http().post('/shop/48213907').send({}).expect(404);
  });
});
