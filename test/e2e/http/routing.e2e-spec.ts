import type { Response } from 'supertest';
import { AppConfig } from '../../../src/config/app-config';
import { RouteRegistry } from '../../../src/http/route-registry';
import { declaredRoutes } from '../../support/routes';
import { startTestApp, TestApp } from '../../support/test-app';

describe('routing (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves exactly the routes its modules declare (the snapshot: test/routes.spec.ts)', () => {
    const line = (r: { method: string; path: string; family?: string; auth?: string; controller: string }) =>
      `${r.method} ${r.path} ${r.family ?? '-'} ${r.auth ?? '-'} ${r.controller}`;
    const served = t.app.get(RouteRegistry).list().map(line).sort();
    expect(served).toEqual(declaredRoutes(t.app.get(AppConfig)).map(line).sort());
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

  it('labels a JSON answer application/json in UTF-8 with the byte length of its body, as Express and Fastify both did', async () => {
    const answers = [
      await t.http().post('/api/v1/nothing').send({ note: 'café' }).expect(404),
      await t.http().post('/connect/12345678').type('form').send('user_key=x&serial=y').expect(404),
      await t.http().post('/admin/v1/auth/login').send({ username: 'nobody', password: 'wrong password' }),
    ];
    for (const res of answers) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(JSON.parse(res.text)).toEqual(res.body);
    }
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

  it("puts helmet's headers and the request id on every answer: success, refusal, unknown path, wrong method, broken URL", async () => {
    const answers: Response[] = [
      await t.http().get('/health/live').expect(200),
      await t.http().post('/api/v1/cards/heartbeat').set('X-Request-Id', 'client-id:0002').send({ machine_id: 'pc' }).expect(401),
      await t.http().post('/api/v1/nothing').expect(404),
      await t.http().get('/admin/v1/auth/login').expect(405),
      await t.http().post('/api/v1/cards/login').set('Content-Type', 'text/plain').send('x').expect(415),
      // Fastify refuses a path it cannot decode before routing (400); Express finds no route (404).
      await t.http().get('/api/v1/%FF'),
    ];
    for (const [index, res] of answers.entries()) {
      expect([index, res.headers['x-content-type-options'], res.headers['x-frame-options']]).toEqual([
        index,
        'nosniff',
        'SAMEORIGIN',
      ]);
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    expect(answers[1].headers['x-request-id']).toBe('client-id:0002');
    expect([400, 404]).toContain(answers[5].status);
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
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/admin/v1/auth/login', '/admin/v1/projects', '/admin/v1/projects/{id}']),
    );
    await t.http().get('/docs').expect(200).expect('Content-Type', /html/);
  });
});
