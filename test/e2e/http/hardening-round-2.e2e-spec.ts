import { rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../src/config/app-config';
import { RouteRegistry } from '../../../src/http/route-registry';
import { startFindings } from '../../../src/doctor/start-checks';
import { REDIS_CLIENT } from '../../../src/core/store/store.providers';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { CODES, v3Login } from '../../support/standard';
import { startTestApp, TestApp, unique, uniqueAddress } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/** Moves the clock (Date) to `now`; every timer stays real, so the app serves as usual but sees a later "now". */
function setClock(now: number): void {
  jest.useFakeTimers({
    now,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
}

/** Sends bytes that are not valid HTTP and reads what comes back until the service closes the connection. */
async function rawExchange(
  t: TestApp,
  bytes: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { port } = new URL(await t.baseUrl());
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.write(bytes);
  });
  const [head, body = ''] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** The red team's findings 5-9 (the operator's side), through the real HTTP stack on the run's adapter and stores. */
describe('hardening, second round (e2e)', () => {
  let t: TestApp;
  let author: AdminClient;
  let project: Project;

  beforeAll(async () => {
    t = await startTestApp({}, { clientAddress: uniqueAddress() });
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    await admin
      .put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: true, daily_quota: 1000 })
      .expect(200);
  });
  afterAll(() => t.close());

  describe('5. a V3/SDK nonce is remembered as long as its timestamp is accepted', () => {
    it('refuses the replay of a request stamped now+295 s when it comes again 306 s later', async () => {
      const card = await insertCard(t, project.id);
      const body = { app: project.program_id, kami: card.code, imei: unique('dev') };
      const signing = { timestamp: Math.floor(Date.now() / 1000) + 295, nonce: unique('nonce-') };
      expect((await v3Login(t, project.api_secret, body, signing)).body).toMatchObject({ code: 0, success: true });
      expect((await v3Login(t, project.api_secret, body, signing)).body.code).toBe(CODES.NONCE_REPLAYED);

      setClock(Date.now() + 306_000);
      try {
        // Still inside ±300 s of its timestamp, so only the remembered nonce refuses it.
        expect((await v3Login(t, project.api_secret, body, signing)).body.code).toBe(CODES.NONCE_REPLAYED);
      } finally {
        jest.useRealTimers();
      }
      const redis = t.app.get<Redis | null>(REDIS_CLIENT);
      // Redis's own clock cannot be moved: there, the key's time to live (RedisStore's `ck:` prefix) says it.
      if (redis) expect(await redis.ttl(`ck:hmac-nonce:${project.id}:${signing.nonce}`)).toBeGreaterThan(590);
    });
  });

  describe('6. Redis without persistence is named at start and in readiness', () => {
    it('says whether Redis keeps nonces, counters and quotas across a restart', async () => {
      const redis = t.app.get<Redis | null>(REDIS_CLIENT);
      const ready = await t.http().get('/health/ready').expect(200);
      if (!redis) {
        expect(ready.body).toMatchObject({ checks: { redis: 'not_configured' }, redis_persistence: 'not_configured' });
        expect(ready.body.warnings).toBeUndefined();
        return;
      }
      // The CI's Redis runs without persistence (.ci/services.sh), as a careless production might.
      expect(ready.body).toMatchObject({
        status: 'ok',
        redis_persistence: 'none',
        warnings: [expect.stringContaining('appendonly yes')],
      });
      // At start it is one finding of the start checks (printed once, by the first worker), and the
      // app's own modules say nothing of it besides (it was once printed twice).
      const atStart = (await startFindings(t.app, t.app.get(AppConfig), {})).filter((finding) => finding.check === 'redis');
      expect(atStart).toEqual([
        expect.objectContaining({ severity: 'warn', message: expect.stringContaining('Redis has no persistence') }),
      ]);
      expect(t.logs.filter((line) => /Redis has /.test(line))).toEqual([]);
      await redis.config('SET', 'appendonly', 'yes');
      try {
        const persisted = await t.http().get('/health/ready').expect(200);
        expect(persisted.body.redis_persistence).toBe('aof');
        expect(persisted.body.warnings).toBeUndefined();
      } finally {
        await redis.config('SET', 'appendonly', 'no');
      }
    });
  });

  describe('7. HEAD answers like GET', () => {
    it('gives the status and content type of GET on every GET route, the legacy query routes included', async () => {
      const card = await insertCard(t, project.id);
      const query = `?app=${project.program_id}&kami=${card.code}&version=1.0.0`;
      const routes = t.app
        .get(RouteRegistry)
        .list()
        .filter((route) => route.method === 'GET');
      expect(routes.map((route) => route.path)).toEqual(
        expect.arrayContaining(['/api/paycheck', '/api/announcement', '/api/latest_version']),
      );
      for (const route of routes) {
        const url = route.path.replace(/:\w+/g, project.id) + (route.path.startsWith('/api/') ? query : '');
        const get = await t.http().get(url).set(author.auth());
        const head = await t.http().head(url).set(author.auth());
        expect({ route: route.path, status: head.status, type: head.headers['content-type'] }).toEqual({
          route: route.path,
          status: get.status,
          type: get.headers['content-type'],
        });
      }
      const paycheck = await t.http().get(`/api/paycheck${query}`).expect(200);
      expect(paycheck.body.code).toBe(1);
    });
  });

  describe('8. readiness fails when the data cannot be written', () => {
    it('goes 503 while the data directory cannot take a write, and back to 200 after', async () => {
      const dir = t.app.get(AppConfig).DATA_DIR;
      await rm(dir, { recursive: true, force: true });
      await writeFile(dir, 'a file where the data directory should be'); // mkdir and every write in it now fail
      try {
        const down = await t.http().get('/health/ready').expect(503);
        expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: 'up', disk: 'down' } });
        expect(down.body.warnings).toEqual(expect.arrayContaining([expect.stringContaining('cannot take a write')]));
      } finally {
        await rm(dir, { force: true });
      }
      expect((await t.http().get('/health/ready').expect(200)).body.checks.disk).toBe('up');
    });

    it('goes 503 when the data directory has less room than READY_MIN_FREE_MB', async () => {
      const roomy = await startTestApp({ READY_MIN_FREE_MB: String(1024 * 1024) }); // 1 TiB: more than this machine has
      try {
        const full = await roomy.http().get('/health/ready').expect(503);
        expect(full.body.checks.disk).toBe('down');
        expect(full.body.warnings).toEqual(
          expect.arrayContaining([expect.stringMatching(/MiB free, under READY_MIN_FREE_MB \(1048576\)/)]),
        );
      } finally {
        await roomy.close();
      }
    });

    (process.env.DATABASE_URL ? it.skip : it)(
      'goes 503 when the database is read-only (the embedded database has one connection, which the SET reaches)',
      async () => {
        const dataSource = t.app.get(DataSource);
        await dataSource.query('SET default_transaction_read_only = on');
        try {
          expect((await t.http().get('/health/ready').expect(503)).body.checks.database).toBe('down');
        } finally {
          await dataSource.query('SET default_transaction_read_only = off');
        }
        expect((await t.http().get('/health/ready').expect(200)).body.checks.database).toBe('up');
      },
    );
  });

  describe('9. bytes that are not HTTP get the envelope of the family their path names', () => {
    it.each([
      [
        'a header with a space in its name',
        'POST /api/v1/cards/login HTTP/1.1\r\nHost: x\r\nBad Header: x\r\nContent-Length: 0\r\n\r\n',
        400,
        'standard',
      ],
      [
        'two different lengths (smuggling)',
        'POST /api/kmlogon HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\napp=',
        400,
        'legacy',
      ],
      [
        'a length beside chunked encoding',
        'POST /connect/abc HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
        'connect',
      ],
      ['a head too large', `GET /admin/v1/projects HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'admin'],
      ['no request line at all', 'GARBAGE\r\n\r\n', 400, 'admin'],
    ] as const)('%s', async (_name, bytes, status, family) => {
      const res = await rawExchange(t, bytes);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const requestId = res.headers['x-request-id'];
      expect(requestId).toMatch(/^[0-9a-f]{32}$/);
      const body = JSON.parse(res.body);
      const code = CODES.BAD_REQUEST;
      const expected = {
        connect: { status: false, code: -code, request_id: requestId },
        standard: { success: false, code, request_id: requestId },
        legacy: { code, request_id: requestId },
        admin: { error: { code }, request_id: requestId },
      }[family];
      expect(body).toMatchObject(expected);
    });
  });
});
