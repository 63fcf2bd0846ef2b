import { AdminClient, login } from '../../support/admin-client';
import { inOneWindow } from '../../support/failure-window';
import { ADMIN_PASSWORD, startTestApp, TestApp, unique, uniqueAddress } from '../../support/test-app';

describe('admin auth (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t.close());

  it('logs the bootstrap admin in with an expiring bearer token and a role', async () => {
    const res = await t.http().post('/admin/v1/auth/login').send({ username: 'ADMIN', password: ADMIN_PASSWORD }).expect(200);
    expect(res.body.role).toBe('platform_admin');
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now());
    const me = await t.http().get('/admin/v1/auth/me').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    expect(me.body).toMatchObject({ username: 'admin', role: 'platform_admin', currency: 'CNY' });
  });

  it('refuses a wrong password with 401 in the admin envelope, without saying which part was wrong', async () => {
    const res = await t.http().post('/admin/v1/auth/login').send({ username: 'admin', password: 'nope-nope' }).expect(401);
    expect(res.body).toEqual({
      error: { code: 11001, message: 'Wrong username or password' },
      request_id: res.headers['x-request-id'],
    });
    const unknown = await t.http().post('/admin/v1/auth/login').send({ username: 'ghost', password: 'nope-nope' }).expect(401);
    expect(unknown.body.error.message).toBe(res.body.error.message);
  });

  it('answers 401 for a missing, unknown or logged-out token', async () => {
    await t.http().get('/admin/v1/auth/me').expect(401);
    await t.http().get('/admin/v1/auth/me').set('Authorization', 'Bearer not-a-real-token').expect(401);
    const token = await login(t, 'admin', ADMIN_PASSWORD);
    await t.http().post('/admin/v1/auth/logout').set('Authorization', `Bearer ${token}`).expect(204);
    await t.http().get('/admin/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
    await admin.get('/admin/v1/auth/me').expect(200);
  });

  it('rejects malformed JSON and unknown fields with 400 naming the field', async () => {
    const bad = await t
      .http()
      .post('/admin/v1/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"username":')
      .expect(400);
    expect(bad.body.error.code).toBe(10001);
    const extra = await t
      .http()
      .post('/admin/v1/auth/login')
      .send({ username: 'admin', password: 'x', role: 'root' })
      .expect(400);
    expect(JSON.stringify(extra.body.error.details)).toContain('role');
  });

  it('never writes the password or the token to a log line', async () => {
    const res = await t.http().post('/admin/v1/auth/login').send({ username: 'admin', password: ADMIN_PASSWORD }).expect(200);
    const all = t.logs.join('\n');
    expect(all).not.toContain(ADMIN_PASSWORD);
    expect(all).not.toContain(res.body.token);
  });
});

describe('admin login throttling (e2e)', () => {
  let t: TestApp;
  // Its own bootstrap admin: with Redis, login counters are shared with every other suite's 'admin'.
  const adminName = unique('throttle');
  beforeAll(async () => {
    t = await startTestApp(
      { ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '3', ADMIN_USERNAME: adminName },
      { clientAddress: uniqueAddress() },
    );
  });
  afterAll(() => t.close());

  it('slows password guessing on an account with 429 RATE_LIMITED and Retry-After, even for the right password', async () => {
    const admin = await AdminClient.asPlatformAdmin(t, adminName);
    await inOneWindow(async () => {
      const victim = await admin.createAuthor(); // its successful login does not count
      const other = await admin.createAuthor();
      const address = uniqueAddress();
      const attempt = (username: string, password: string) =>
        t.http().post('/admin/v1/auth/login').set('X-Forwarded-For', address).send({ username, password });
      for (let i = 0; i < 3; i++) await attempt(victim.username, 'wrong-guess').expect(401);
      const limited = await attempt(victim.username, victim.password).expect(429);
      expect(limited.body.error.code).toBe(10302);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body.token).toBeUndefined();
      // The address has reached the limit too: it may not try another account this minute.
      await attempt(other.username, other.password).expect(429);
    });
  });
});
