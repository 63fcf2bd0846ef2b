import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS_CLIENT } from '../src/core/store/store.providers';
import { AdminClient } from './support/admin-client';
import { ADMIN_PASSWORD, startTestApp, TestApp } from './support/test-app';

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
