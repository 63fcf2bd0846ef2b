import { familyOfPath } from '../src/core/envelope/family';
import { RouteRegistry } from '../src/core/http/route-registry';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Every route with its method, envelope family and auth scheme. A route that loses its guard or
 * moves family changes this list, and the diff is reviewed.
 */
const ROUTES = [
  'DELETE /admin/v1/projects/:id/announcements/:annId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/cards/:cardId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/cards/:cardId/devices/:machine admin admin-bearer',
  'GET /admin/v1/projects/:id/announcements admin admin-bearer',
  'GET /admin/v1/projects/:id/app-users admin admin-bearer',
  'GET /admin/v1/projects/:id/app-users/:userId admin admin-bearer',
  'GET /admin/v1/projects/:id/announcements/:annId admin admin-bearer',
  'GET /admin/v1/projects/:id/cards admin admin-bearer',
  'GET /admin/v1/projects/:id/cards/:cardId admin admin-bearer',
  'GET /admin/v1/projects/:id/cards/export.csv admin admin-bearer',
  'GET /admin/v1/projects/:id/logs admin admin-bearer',
  'GET /admin/v1/projects/:id/stats admin admin-bearer',
  'PATCH /admin/v1/projects/:id/announcements/:annId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/app-users/:userId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/cards/:cardId admin admin-bearer',
  'POST /admin/v1/projects/:id/announcements admin admin-bearer',
  'POST /admin/v1/projects/:id/cards admin admin-bearer',
  'POST /admin/v1/projects/:id/sessions/revoke admin admin-bearer',
  'POST /api/app-users/login legacy none',
  'POST /api/app-users/register legacy none',
  'POST /api/legacy/v3/cards/login standard hmac',
  'POST /api/v1/cards/login standard hmac',
  'POST /api/v1/cards/checkout standard hmac',
  'POST /api/v1/cards/heartbeat standard session-bearer',
  'POST /api/v1/users/heartbeat standard session-bearer',
  'POST /api/v1/users/login standard hmac',
  'POST /api/v1/users/register standard hmac',
  'DELETE /admin/v1/projects/:id admin admin-bearer',
  'DELETE /admin/v1/projects/:id/connect/customization admin admin-bearer',
  'DELETE /admin/v1/projects/:id/files/:fileId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/versions/:versionId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/blacklist/:entryId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/sites/:siteId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/variables/:variableId admin admin-bearer',
  'GET /admin/v1/projects/:id/connect/customization admin admin-bearer',
  'POST /admin/v1/projects/:id/connect/customization/preview admin admin-bearer',
  'PUT /admin/v1/projects/:id/connect/customization admin admin-bearer',
  'POST /connect/:programId connect none',
  'POST /conncet/:programId connect none',
  'GET /admin/v1/auth/me admin admin-bearer',
  'GET /admin/v1/authors admin admin-bearer',
  'GET /admin/v1/authors/:id admin admin-bearer',
  'GET /admin/v1/platform/announcements admin admin-bearer',
  'GET /admin/v1/platform/interfaces admin admin-bearer',
  'GET /admin/v1/platform/settings admin admin-bearer',
  'GET /admin/v1/projects admin admin-bearer',
  'GET /admin/v1/projects/:id admin admin-bearer',
  'GET /admin/v1/projects/:id/files admin admin-bearer',
  'GET /admin/v1/projects/:id/files/:fileId admin admin-bearer',
  'GET /admin/v1/projects/:id/interfaces admin admin-bearer',
  'GET /admin/v1/projects/:id/versions admin admin-bearer',
  'GET /admin/v1/projects/:id/versions/:versionId admin admin-bearer',
  'GET /admin/v1/projects/:id/blacklist admin admin-bearer',
  'GET /admin/v1/projects/:id/sites admin admin-bearer',
  'GET /admin/v1/projects/:id/sites/:siteId admin admin-bearer',
  'GET /admin/v1/projects/:id/variables admin admin-bearer',
  'GET /admin/v1/projects/:id/variables/:variableId admin admin-bearer',
  'GET /api/announcement legacy none',
  'GET /api/latest_version legacy none',
  'GET /api/download/:id legacy signed-url',
  'GET /api/paycheck legacy none',
  'GET /health/live - none',
  'GET /health/ready - none',
  'GET /metrics - none',
  'PATCH /admin/v1/authors/:id admin admin-bearer',
  'PATCH /admin/v1/projects/:id admin admin-bearer',
  'PATCH /admin/v1/projects/:id/versions/:versionId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/sites/:siteId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/variables/:variableId admin admin-bearer',
  'POST /admin/v1/auth/login admin none',
  'POST /admin/v1/auth/logout admin admin-bearer',
  'POST /admin/v1/authors admin admin-bearer',
  'POST /admin/v1/platform/announcements admin admin-bearer',
  'POST /admin/v1/projects admin admin-bearer',
  'POST /admin/v1/projects/:id/files admin admin-bearer',
  'POST /admin/v1/projects/:id/secrets/:name/rotate admin admin-bearer',
  'GET /admin/v1/projects/:id/signing-keys admin admin-bearer',
  'POST /admin/v1/projects/:id/signing-keys/rotate admin admin-bearer',
  'POST /admin/v1/projects/:id/versions admin admin-bearer',
  'POST /admin/v1/projects/:id/blacklist admin admin-bearer',
  'POST /admin/v1/projects/:id/sites admin admin-bearer',
  'POST /admin/v1/projects/:id/variables admin admin-bearer',
  'POST /api/announcement legacy none',
  'POST /api/latest_version legacy none',
  'POST /api/app legacy md5',
  'POST /api/card_login legacy md5',
  'POST /api/check legacy none',
  'POST /api/kmlogon legacy none',
  'POST /api/kmunmachine legacy none',
  'POST /api/legacy/v1/app legacy md5',
  'POST /api/paycheck legacy none',
  'POST /api/unbind_machine legacy md5',
  'POST /api/verify legacy none',
  'POST /api/v1/apps/version standard hmac',
  'PUT /admin/v1/platform/interfaces/:name admin admin-bearer',
  'PUT /admin/v1/platform/settings admin admin-bearer',
  'PUT /admin/v1/projects/:id/connect admin admin-bearer',
  'PUT /admin/v1/projects/:id/entitlements admin admin-bearer',
  'PUT /admin/v1/projects/:id/interfaces/:name admin admin-bearer',
];

describe('routing (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists every route with its family and auth scheme', () => {
    const routes = t.app.get(RouteRegistry).list();
    expect(routes.map((r) => `${r.method} ${r.path} ${r.family ?? '-'} ${r.auth ?? '-'}`).sort()).toEqual([...ROUTES].sort());
  });

  it("declares on every client or admin route the envelope its path's family renders errors in", () => {
    for (const route of t.app.get(RouteRegistry).list()) {
      if (route.family) expect(`${route.path} ${familyOfPath(route.path)}`).toBe(`${route.path} ${route.family}`);
    }
  });

  it.each([
    ['/connect/12345678/extra', { status: false, code: -10006 }],
    ['/conncet', { status: false, code: -10006 }],
    ['/api/legacy/v3/nothing', { success: false, code: 10006 }],
    ['/api/v1/nothing', { success: false, code: 10006 }],
    ['/api/nothing', { code: 10006 }],
    ['/admin/v1/nothing', { error: expect.objectContaining({ code: 10006 }) }],
  ])('answers an unknown path %s with JSON 404 in its family envelope', async (path, shape) => {
    const res = await t.http().post(path).type('form').send('a=b').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ ...shape, request_id: res.headers['x-request-id'] });
  });

  it('answers a wrong method with JSON 405 and Allow, never HTML or a redirect', async () => {
    for (const method of ['get', 'put', 'delete', 'patch'] as const) {
      const res = await t.http()[method]('/admin/v1/auth/login').expect(405);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.allow).toBe('POST');
      expect(res.body.error.code).toBe(10002);
    }
    const head = await t.http().head('/admin/v1/auth/login').expect(405);
    expect(head.headers.allow).toBe('POST');
  });

  it('keeps a valid incoming X-Request-Id and replaces an invalid one', async () => {
    const kept = await t.http().get('/admin/v1/nothing').set('X-Request-Id', 'client-id:0001').expect(404);
    expect(kept.headers['x-request-id']).toBe('client-id:0001');
    expect(kept.body.request_id).toBe('client-id:0001');
    const replaced = await t.http().get('/admin/v1/nothing').set('X-Request-Id', 'bad id with spaces').expect(404);
    expect(replaced.headers['x-request-id']).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
    expect(replaced.body.request_id).toBe(replaced.headers['x-request-id']);
  });

  it('reports liveness, readiness of its database and store, and Prometheus metrics', async () => {
    await t.http().get('/health/live').expect(200, { status: 'ok' });
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body.checks.database).toBe('up');
    expect(ready.body.checks.redis).toBe(process.env.REDIS_URL ? 'up' : 'not_configured');
    await t.http().get('/admin/v1/nothing').expect(404);
    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/http_requests_total\{family="admin",method="GET",outcome="rejected",status="404"\} \d+/);
    expect(metrics.text).toContain('http_request_duration_seconds_bucket');
  });

  it('serves the OpenAPI document listing the admin routes', async () => {
    const res = await t.http().get('/docs-json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/admin/v1/auth/login', '/admin/v1/projects', '/admin/v1/projects/{id}']));
    await t.http().get('/docs').expect(200).expect('Content-Type', /html/);
  });
});
