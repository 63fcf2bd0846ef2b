import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS_CLIENT } from '../../../src/core/store/store.providers';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { sdkLogin } from '../../support/standard';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../../support/test-app';

/** Platform faults answer SYSTEM_ERROR with an error id that is in the log line with the stack. */
describe('platform faults (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t.close());

  it('answers a lost database with 500 SYSTEM_ERROR, an error id in the log with the stack, and no internals', async () => {
    const dataSource = t.app.get(DataSource);
    const pool = (dataSource.driver as unknown as { master: { end: () => Promise<void> } }).master;
    await pool.end(); // every later query fails like a dropped database connection

    const res = await admin.get('/admin/v1/authors').expect(500);
    expect(res.body).toEqual({
      error: { code: 50000, message: expect.stringContaining('System error') },
      request_id: res.headers['x-request-id'],
      error_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.error_id === res.body.error_id);
    expect(line).toMatchObject({ level: 'error', request_id: res.body.request_id, stack: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/pool|query|pg|typeorm/i);

    const ready = await t.http().get('/health/ready').expect(503);
    expect(ready.body.checks.database).toBe('down');

    // Login must not succeed without the database either.
    const login = await t.http().post('/admin/v1/auth/login').send({ username: 'admin', password: ADMIN_PASSWORD }).expect(500);
    expect(login.body.error.code).toBe(50000);
    expect(login.body.token).toBeUndefined();
  });
});

/** `/health/ready` fails whenever a card login cannot succeed, and comes back with it. */
describe('readiness and the login path (e2e)', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;
  let card: { code: string };

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await AdminClient.asPlatformAdmin(t);
    project = await (await admin.createAuthor()).client.createProject();
    card = await insertCard(t, project.id);
  });
  afterAll(() => t.close());

  const login = () => sdkLogin(t, project.api_secret, { app: project.program_id, card_key: card.code, machine_id: 'dev-1' });

  it('goes 503 naming the login while a table the login needs is gone, and back to 200 when it returns', async () => {
    const ready = (await t.http().get('/health/ready').expect(200)).body;
    expect(ready.checks).toMatchObject({ database: 'up', schema: 'up', login: 'up' });
    await login().expect(200);
    const db = t.app.get(DataSource);
    await db.query('ALTER TABLE login_logs RENAME TO login_logs_away');
    try {
      expect((await login()).body.code).toBe(50000);
      const down = (await t.http().get('/health/ready').expect(503)).body;
      expect(down).toMatchObject({ status: 'unavailable', checks: { database: 'up', login: 'down' } });
    } finally {
      await db.query('ALTER TABLE login_logs_away RENAME TO login_logs');
    }
    expect((await t.http().get('/health/ready').expect(200)).body.checks.login).toBe('up');
    expect((await login().expect(200)).body.code).toBe(0);
  });

  it('goes 503 naming the schema when a migration this release knows is not applied', async () => {
    const db = t.app.get(DataSource);
    const [{ name }] = await db.query('SELECT name FROM migrations ORDER BY id DESC LIMIT 1');
    await db.query(`UPDATE migrations SET name = 'elsewhere' WHERE name = $1`, [name]);
    try {
      expect((await t.http().get('/health/ready').expect(503)).body.checks.schema).toBe('down');
    } finally {
      await db.query(`UPDATE migrations SET name = $1 WHERE name = 'elsewhere'`, [name]);
    }
    expect((await t.http().get('/health/ready').expect(200)).body.checks.schema).toBe('up');
  });
});

(process.env.REDIS_URL ? describe : describe.skip)('redis faults (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses a throttled login with SYSTEM_ERROR, not a success, when Redis is gone', async () => {
    t.app.get<Redis>(REDIS_CLIENT).disconnect();
    const res = await t.http().post('/admin/v1/auth/login').send({ username: 'admin', password: ADMIN_PASSWORD });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe(50000);
    expect(res.body.token).toBeUndefined();
    const ready = await t.http().get('/health/ready').expect(503);
    expect(ready.body.checks.redis).toBe('down');
  });
});
