import type { Response } from 'supertest';
import { AdminClient } from '../../support/admin-client';
import { signedPost } from '../../support/signing';
import { expectStandardFailure } from '../../support/standard';
import { itInOneWindow } from '../../support/failure-window';
import { startTestApp, TestApp, unique } from '../../support/test-app';
import { ErrorCode } from '../../../sdk/src';

/**
 * Failed program-user logins are throttled per (project, username) and per (project, client address)
 * (decisions §6): only failures count, the refusal is 429 RATE_LIMITED with Retry-After in the
 * route's envelope, and with DATABASE_URL and REDIS_URL the count is shared by every instance.
 * Client addresses are simulated with X-Forwarded-For from a trusted local proxy.
 */

const LIMIT = 3;
const { RATE_LIMITED, BAD_CREDENTIALS } = ErrorCode;
const PASSWORD = 'throttle-pass-1';
const ENV = { APP_USER_LOGIN_ATTEMPTS_PER_MINUTE: String(LIMIT), TRUST_PROXY: '127.0.0.1,::1' };

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

function expectRateLimited(res: Response): void {
  expectStandardFailure(res, 429, RATE_LIMITED);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

class Users {
  constructor(
    readonly t: TestApp,
    readonly project: Project,
  ) {}

  register(username: string) {
    const body = { app: this.project.program_id, username, password: PASSWORD, machine_id: 'm-1' };
    return signedPost(this.t, '/api/v1/users/register', body, 'json', this.project.api_secret).expect(200);
  }

  login(username: string, password: string, ip: string, on: TestApp = this.t) {
    const body = { app: this.project.program_id, username, password, machine_id: 'm-1' };
    return signedPost(on, '/api/v1/users/login', body, 'json', this.project.api_secret).set('X-Forwarded-For', ip);
  }

  compatLogin(username: string, password: string, ip: string) {
    const body = new URLSearchParams({ app: this.project.program_id, username, password, machine_id: 'm-1' }).toString();
    return this.t.http().post('/api/app-users/login').set('X-Forwarded-For', ip).type('form').send(body);
  }
}

describe('program users: failed-login throttling (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;

  beforeAll(async () => {
    t = await startTestApp(ENV);
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  /** A fresh project: the throttles count per project. Tests run in one failure window (itInOneWindow). */
  async function fresh(): Promise<Users> {
    return new Users(t, await author.createProject());
  }

  itInOneWindow(
    'refuses a username after LIMIT failures from any addresses with 429 RATE_LIMITED and Retry-After, even with the right password',
    async () => {
      const users = await fresh();
      const name = unique('victim');
      await users.register(name);
      for (let i = 0; i < LIMIT; i++)
        expect((await users.login(name, 'wrong-guess', `10.1.0.${i + 1}`)).body.code).toBe(BAD_CREDENTIALS);
      expectRateLimited(await users.login(name, 'wrong-guess', '10.1.0.99'));
      expectRateLimited(await users.login(name, PASSWORD, '10.1.0.100'));
      // Another account of the project, from a fresh address, is not affected.
      const other = unique('bystander');
      await users.register(other);
      expect((await users.login(other, PASSWORD, '10.1.0.101')).body.code).toBe(0);
    },
  );

  itInOneWindow('refuses an address after LIMIT failures on any usernames, and no other address', async () => {
    const users = await fresh();
    const name = unique('real');
    await users.register(name);
    for (let i = 0; i < LIMIT; i++)
      expect((await users.login(unique(`guess${i}`), 'wrong-guess', '10.2.0.1')).body.code).toBe(BAD_CREDENTIALS);
    expectRateLimited(await users.login(name, PASSWORD, '10.2.0.1'));
    expect((await users.login(name, PASSWORD, '10.2.0.2')).body.code).toBe(0);
  });

  itInOneWindow('counts only failed logins: successes never use up the limit', async () => {
    const users = await fresh();
    const name = unique('often');
    await users.register(name);
    for (let i = 0; i < LIMIT * 3; i++) expect((await users.login(name, PASSWORD, '10.3.0.1')).body.code).toBe(0);
    for (let i = 0; i < LIMIT; i++) expect((await users.login(name, 'wrong-guess', '10.3.0.1')).body.code).toBe(BAD_CREDENTIALS);
    expectRateLimited(await users.login(name, PASSWORD, '10.3.0.1'));
  });

  itInOneWindow('lets exactly LIMIT of 12 concurrent wrong guesses through to a password check', async () => {
    const users = await fresh();
    const name = unique('burst');
    await users.register(name);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => users.login(name, `guess-${i}`, `10.4.0.${i + 1}`)));
    const codes = results.map((r) => r.body.code);
    expect(codes.filter((c) => c === BAD_CREDENTIALS)).toHaveLength(LIMIT);
    expect(codes.filter((c) => c === RATE_LIMITED)).toHaveLength(12 - LIMIT);
  });

  itInOneWindow('lets many users behind one address log in at the same time: only failures count there', async () => {
    const users = await fresh();
    const names = Array.from({ length: 12 }, () => unique('office'));
    for (const name of names) await users.register(name);
    const results = await Promise.all(names.map((name) => users.login(name, PASSWORD, '10.6.0.1')));
    expect(results.map((r) => r.body.code)).toEqual(names.map(() => 0));
  });

  itInOneWindow(
    'keeps projects apart: failures in one project do not throttle the same username or address in another',
    async () => {
      const one = await fresh();
      const two = new Users(t, await author.createProject());
      const name = unique('twin');
      await one.register(name);
      await two.register(name);
      for (let i = 0; i < LIMIT; i++) await one.login(name, 'wrong-guess', '10.5.0.1');
      expectRateLimited(await one.login(name, PASSWORD, '10.5.0.1'));
      expect((await two.login(name, PASSWORD, '10.5.0.1')).body.code).toBe(0);
    },
  );

  itInOneWindow('throttles the compatibility login too, answering in the legacy envelope with Retry-After', async () => {
    const users = await fresh();
    const name = unique('legacy');
    await users.register(name);
    for (let i = 0; i < LIMIT; i++)
      expect((await users.compatLogin(name, 'wrong-guess', '10.6.0.1')).body.code).toBe(BAD_CREDENTIALS);
    const res = await users.compatLogin(name, PASSWORD, '10.6.0.1');
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ code: RATE_LIMITED, msg: expect.any(String), request_id: res.headers['x-request-id'] });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The SDK route shares the count.
    expectRateLimited(await users.login(name, PASSWORD, '10.6.0.2'));
  });

  itInOneWindow('leaves the admin login to its own throttle', async () => {
    const users = await fresh();
    const name = unique('adm');
    await users.register(name);
    for (let i = 0; i < LIMIT; i++) await users.login(name, 'wrong-guess', '10.7.0.1');
    // Far more admin logins than the program-user limit, from the same client.
    for (let i = 0; i < LIMIT * 2; i++)
      await t.http().post('/admin/v1/auth/login').send({ username: 'admin', password: 'admin-password-for-tests' }).expect(200);
  });
});

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const describeShared = shared ? describe : describe.skip;

describeShared('program users: failed-login throttling across two instances (e2e)', () => {
  let one: TestApp;
  let two: TestApp;
  let author: AdminClient;

  beforeAll(async () => {
    one = await startTestApp(ENV);
    two = await startTestApp(ENV, { shareWith: one });
    const admin = await AdminClient.asPlatformAdmin(one);
    author = (await admin.createAuthor()).client;
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  itInOneWindow('counts failures on both instances together and refuses on either with 429 RATE_LIMITED', async () => {
    const users = new Users(one, await author.createProject());
    const name = unique('multi');
    await users.register(name);
    for (let i = 0; i < LIMIT; i++) {
      const res = await users.login(name, 'wrong-guess', `10.8.0.${i + 1}`, i % 2 === 0 ? one : two);
      expect(res.body.code).toBe(BAD_CREDENTIALS);
    }
    expectRateLimited(await users.login(name, PASSWORD, '10.8.0.50', two));
    expectRateLimited(await users.login(name, PASSWORD, '10.8.0.51', one));
  });
});
