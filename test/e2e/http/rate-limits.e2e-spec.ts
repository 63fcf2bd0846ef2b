import { GUARDS_METADATA } from '@nestjs/common/constants';
import type { Response } from 'supertest';
import { ConnectController } from '../../../src/connect/connect.controller';
import { RouteRateGuard } from '../../../src/http/throttling/route-rate.guard';
import { LegacyCardsController } from '../../../src/legacy/cards/legacy-cards.controller';
import { SdkCardsController } from '../../../src/sdk/sdk-cards.controller';
import { SdkUsersController } from '../../../src/sdk/sdk-users.controller';
import { V3Controller } from '../../../src/v3/v3.controller';
import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { createType } from '../../support/agents';
import { insertCard } from '../../support/cards';
import { itInOneWindow } from '../../support/failure-window';
import { expectLegacyFailure } from '../../support/legacy';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, expectStandardFailure } from '../../support/standard';
import { startTestApp, TestApp, unique, uniqueAddress } from '../../support/test-app';

/**
 * Plain request-rate limits (@nestjs/throttler, src/http/throttling/route-rate.guard.ts) on the
 * route classes where abuse costs: per client address and per account, program or card, counted in
 * the shared store, refused as 10302 RATE_LIMITED (429) in the family's envelope with the IETF
 * draft RateLimit-* headers and Retry-After. Client addresses come from X-Forwarded-For through a
 * trusted local proxy; each test uses fresh addresses and subjects and runs in one clock window.
 */

const { RATE_LIMITED } = ErrorCode;
const PASSWORD = 'rate-pass-1';
const LOW = {
  TRUST_PROXY: '127.0.0.1,::1',
  RATE_LIMIT_REGISTER_PER_ADDRESS: '2',
  RATE_LIMIT_REGISTER_PER_PROGRAM: '3',
  RATE_LIMIT_PORTAL_PER_ADDRESS: '2',
  RATE_LIMIT_UNBIND_PER_ADDRESS: '3',
  RATE_LIMIT_UNBIND_PER_CARD: '2',
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: '3',
  RATE_LIMIT_SIGN_IN_PER_ACCOUNT: '2',
};

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/** The allowed answer's headers: the limit of the scope nearest its limit, what is left of it, and the seconds to its reset. */
function expectRateHeaders(res: Response, limit: number, remaining: number): void {
  expect({ limit: res.headers['ratelimit-limit'], remaining: res.headers['ratelimit-remaining'] }).toEqual({
    limit: String(limit),
    remaining: String(remaining),
  });
  const reset = Number(res.headers['ratelimit-reset']);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
}

/** A refusal's headers: nothing left, Retry-After the seconds to the window's end. */
function expectRefusalHeaders(res: Response, limit: number): void {
  expectRateHeaders(res, limit, 0);
  expect(res.headers['retry-after']).toBe(res.headers['ratelimit-reset']);
}

function expectNoRateHeaders(res: Response): void {
  expect(Object.keys(res.headers).filter((name) => name.startsWith('ratelimit') || name === 'retry-after')).toEqual([]);
}

const from = (req: ReturnType<typeof signedPost>, address: string) => req.set('X-Forwarded-For', address);

/** A signed SDK program-user call from `address`. */
function sdkUserCall(action: 'register' | 'login', t: TestApp, p: Project, username: string, address: string) {
  const body = { app: p.program_id, username, password: PASSWORD, machine_id: 'm-1' };
  return from(signedPost(t, `/api/v1/users/${action}`, body, 'json', p.api_secret), address);
}

const sdkRegister = (t: TestApp, p: Project, username: string, address: string) =>
  sdkUserCall('register', t, p, username, address);
const sdkUserLogin = (t: TestApp, p: Project, username: string, address: string) => sdkUserCall('login', t, p, username, address);

function compatRegister(t: TestApp, p: Project, username: string, address: string) {
  const form = new URLSearchParams({ app: p.program_id, username, password: PASSWORD, machine_id: 'm-1' }).toString();
  return t.http().post('/api/app-users/register').set('X-Forwarded-For', address).type('form').send(form);
}

function adminLogin(t: TestApp, username: string, password: string, address: string) {
  return t.http().post('/admin/v1/auth/login').set('X-Forwarded-For', address).send({ username, password });
}

describe('the hot paths carry no rate guard', () => {
  const guardsOf = (controller: { prototype: object }, method: string): unknown[] => [
    ...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []),
    ...(Reflect.getMetadata(GUARDS_METADATA, (controller.prototype as Record<string, object>)[method]) ?? []),
  ];

  it.each([
    ['Connect login', ConnectController, 'login'],
    ['V3 login', V3Controller, 'login'],
    ['SDK card login', SdkCardsController, 'login'],
    ['SDK card heartbeat', SdkCardsController, 'heartbeat'],
    ['SDK user heartbeat', SdkUsersController, 'heartbeat'],
    ['legacy kmlogon', LegacyCardsController, 'kmlogon'],
    ['legacy card_login', LegacyCardsController, 'cardLogin'],
  ] as const)('%s has guards, none of them RouteRateGuard', (_name, controller, method) => {
    const guards = guardsOf(controller, method);
    expect(guards.length).toBeGreaterThan(0);
    expect(guards).not.toContain(RouteRateGuard);
  });

  it('the routes of a limited class do carry it', () => {
    expect(guardsOf(SdkCardsController, 'unbind')).toContain(RouteRateGuard);
    expect(guardsOf(SdkUsersController, 'login')).toContain(RouteRateGuard);
  });
});

describe('request-rate limits per route class (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;

  beforeAll(async () => {
    t = await startTestApp(LOW);
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject({ user_machine_policy: 'free' });
  });
  afterAll(() => t.close());

  itInOneWindow(
    'register: counts every family per address, answers the headers, refuses past the limit in each envelope; another address is not limited',
    async () => {
      const address = uniqueAddress();
      const first = await sdkRegister(t, project, unique('r'), address).expect(200);
      expectRateHeaders(first, 2, 1);
      const second = await compatRegister(t, project, unique('r'), address).expect(200);
      expect(second.body.code).toBe(1);
      expectRateHeaders(second, 2, 0);
      const sdkRefused = await sdkRegister(t, project, unique('r'), address);
      expectStandardFailure(sdkRefused, 429, RATE_LIMITED);
      expectRefusalHeaders(sdkRefused, 2);
      const legacyRefused = await compatRegister(t, project, unique('r'), address);
      expectLegacyFailure(legacyRefused, 429, RATE_LIMITED);
      expectRefusalHeaders(legacyRefused, 2);
      // The legacy aggregate's user_register action is the same route class.
      const form = new URLSearchParams({
        app: project.program_id,
        api: 'user_register',
        username: unique('r'),
        password: PASSWORD,
        machine_id: 'm-1',
      }).toString();
      expectLegacyFailure(
        await t.http().post('/api/app').set('X-Forwarded-For', address).type('form').send(form),
        429,
        RATE_LIMITED,
      );
      await sdkRegister(t, project, unique('r'), uniqueAddress()).expect(200);
    },
  );

  itInOneWindow('register: counts per program from any address; another program is not limited', async () => {
    const p = await author.createProject();
    const other = await author.createProject();
    for (let i = 0; i < 3; i++) expect((await sdkRegister(t, p, unique('p'), uniqueAddress())).body.success).toBe(true);
    const refused = await sdkRegister(t, p, unique('p'), uniqueAddress());
    expectStandardFailure(refused, 429, RATE_LIMITED);
    expectRefusalHeaders(refused, 3);
    expect((await sdkRegister(t, other, unique('p'), uniqueAddress())).body.success).toBe(true);
  });

  itInOneWindow('register: of 8 concurrent registrations from one address exactly the limit pass', async () => {
    const p = await author.createProject();
    const address = uniqueAddress();
    const answers = await Promise.all(Array.from({ length: 8 }, () => sdkRegister(t, p, unique('c'), address)));
    expect(answers.filter((res) => res.status === 200 && res.body.success === true)).toHaveLength(2);
    expect(answers.filter((res) => res.status === 429 && res.body.code === RATE_LIMITED)).toHaveLength(6);
  });

  itInOneWindow('portal: refuses an address past its limit in the standard envelope', async () => {
    const card = await insertCard(t, project.id);
    const address = uniqueAddress();
    const info = () =>
      t
        .http()
        .post('/api/v1/portal/cards/info')
        .set('X-Forwarded-For', address)
        .send({ program_id: project.program_id, card_key: card.code });
    expectRateHeaders(await info().expect(200), 2, 1);
    expectRateHeaders(await info().expect(200), 2, 0);
    const refused = await info();
    expectStandardFailure(refused, 429, RATE_LIMITED);
    expectRefusalHeaders(refused, 2);
  });

  itInOneWindow(
    'unbind: refuses a card past its limit from any address (SDK and legacy routes together), in each envelope',
    async () => {
      const card = await insertCard(t, project.id);
      const sdkUnbind = () =>
        from(
          signedPost(
            t,
            '/api/v1/cards/unbind',
            { app: project.program_id, card_key: card.code, machine_id: 'dev' },
            'json',
            project.api_secret,
          ),
          uniqueAddress(),
        );
      const legacyUnbind = () =>
        t
          .http()
          .post('/api/kmunmachine')
          .set('X-Forwarded-For', uniqueAddress())
          .type('form')
          .send(new URLSearchParams({ app: project.program_id, kami: card.code, imei: 'dev' }).toString());
      expectRateHeaders(await sdkUnbind().expect(200), 2, 1);
      expectRateHeaders(await legacyUnbind().expect(200), 2, 0);
      const legacyRefused = await legacyUnbind();
      expectLegacyFailure(legacyRefused, 429, RATE_LIMITED);
      expectRefusalHeaders(legacyRefused, 2);
      expectStandardFailure(await sdkUnbind(), 429, RATE_LIMITED);
      // Another card, from the same kind of addresses, is not limited.
      const other = await insertCard(t, project.id);
      const res = await from(
        signedPost(
          t,
          '/api/v1/cards/unbind',
          { app: project.program_id, card_key: other.code, machine_id: 'dev' },
          'json',
          project.api_secret,
        ),
        uniqueAddress(),
      );
      expect(res.status).toBe(200);
    },
  );

  it('card login and the heartbeat carry no rate guard (no RateLimit headers)', async () => {
    const card = await insertCard(t, project.id);
    const login = await signedPost(
      t,
      '/api/v1/cards/login',
      { app: project.program_id, card_key: card.code, machine_id: 'hot' },
      'json',
      project.api_secret,
    ).expect(200);
    expect(login.body.success).toBe(true);
    expectNoRateHeaders(login);
    const beat = await cardHeartbeat(t, login.body.data.session_token, 'hot').expect(200);
    expectNoRateHeaders(beat);
  });
});

describe('request-rate limits: sign-in and admin writes (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let project: Project;

  beforeAll(async () => {
    // Registrations off: a scope set to 0 counts nothing and answers no headers.
    // Sign-ins: 4 an address, so that the setup's sign-ins from loopback (and a retried test's) fit.
    t = await startTestApp({
      ...LOW,
      RATE_LIMIT_SIGN_IN_PER_ADDRESS: '4',
      RATE_LIMIT_REGISTER_PER_ADDRESS: '0',
      RATE_LIMIT_REGISTER_PER_PROGRAM: '0',
    });
    admin = await AdminClient.asPlatformAdmin(t);
    project = await (await admin.createAuthor()).client.createProject({ user_machine_policy: 'free' });
  });
  afterAll(() => t.close());

  it('a route class whose limits are set to 0 is not limited and answers no headers', async () => {
    const address = uniqueAddress();
    for (let i = 0; i < 5; i++) expectNoRateHeaders(await sdkRegister(t, project, unique('off'), address).expect(200));
  });

  itInOneWindow(
    'sign-in: refuses an address past its limit over admin and program-user logins, in the admin, standard and legacy envelopes',
    async () => {
      const address = uniqueAddress();
      const user = unique('u');
      await sdkRegister(t, project, user, uniqueAddress()).expect(200);
      expect((await adminLogin(t, unique('nobody'), 'wrong-password', address)).status).toBe(401);
      expect((await sdkUserLogin(t, project, user, address)).body.success).toBe(true);
      await sdkUserLogin(t, project, unique('nobody'), address).expect(200);
      expectRateHeaders(await sdkUserLogin(t, project, unique('nobody'), address).expect(200), 4, 0);
      const adminRefused = await adminLogin(t, unique('nobody'), 'wrong-password', address);
      expect({ status: adminRefused.status, body: adminRefused.body }).toEqual({
        status: 429,
        body: { error: { code: RATE_LIMITED, message: expect.any(String) }, request_id: adminRefused.headers['x-request-id'] },
      });
      expectRefusalHeaders(adminRefused, 4);
      expectStandardFailure(await sdkUserLogin(t, project, user, address), 429, RATE_LIMITED);
      const form = new URLSearchParams({
        app: project.program_id,
        username: user,
        password: PASSWORD,
        machine_id: 'm-1',
      }).toString();
      expectLegacyFailure(
        await t.http().post('/api/app-users/login').set('X-Forwarded-For', address).type('form').send(form),
        429,
        RATE_LIMITED,
      );
      // The refusals at the address were not charged to the account: it signs in from elsewhere.
      expect((await sdkUserLogin(t, project, user, uniqueAddress())).body.success).toBe(true);
    },
  );

  itInOneWindow(
    'sign-in: refuses an account past its limit from any address, right password included; other accounts are not limited',
    async () => {
      const { username, password } = await admin.createAuthor(); // its first sign-in
      await adminLogin(t, username, password, uniqueAddress()).expect(200);
      const refused = await adminLogin(t, username, password, uniqueAddress());
      expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 429, code: RATE_LIMITED });
      expectRefusalHeaders(refused, 2);
      const user = unique('acct');
      await sdkRegister(t, project, user, uniqueAddress()).expect(200);
      for (let i = 0; i < 2; i++) expect((await sdkUserLogin(t, project, user, uniqueAddress())).body.success).toBe(true);
      expectStandardFailure(await sdkUserLogin(t, project, user, uniqueAddress()), 429, RATE_LIMITED);
      expect((await sdkUserLogin(t, project, unique('other'), uniqueAddress())).status).toBe(200);
    },
  );
});

describe('request-rate limits: admin writes (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ADMIN_WRITE_PER_ACCOUNT: '2' });
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t.close());

  itInOneWindow(
    'refuses an account past its limit in the admin envelope; reads are never counted; another account writes on',
    async () => {
      const author = (await admin.createAuthor()).client;
      const created = await author.post('/admin/v1/projects', { name: unique('Program ') }).expect(201);
      expectRateHeaders(created, 2, 1);
      expectNoRateHeaders(await author.get(`/admin/v1/projects/${created.body.id}`).expect(200));
      expectRateHeaders(
        await author.patch(`/admin/v1/projects/${created.body.id}`, { name: unique('Renamed ') }).expect(200),
        2,
        0,
      );
      const refused = await author.post('/admin/v1/projects', { name: unique('Program ') });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 429,
        body: { error: { code: RATE_LIMITED, message: expect.any(String) }, request_id: refused.headers['x-request-id'] },
      });
      expectRefusalHeaders(refused, 2);
      await author.get(`/admin/v1/projects/${created.body.id}`).expect(200);
      await admin.createAuthor();
    },
  );
});

describe('request-rate limits: orders (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ORDERS_PER_ACCOUNT: '2' });
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t.close());

  itInOneWindow('orders: an account past its limit is refused before anything is made; another account orders on', async () => {
    const author = (await admin.createAuthor()).client;
    const project = await author.createProject();
    const type = await createType(author, project.id);
    const order = (n: number) =>
      author.post(`/admin/v1/projects/${project.id}/orders`, { order_id: `rl-${n}`, card_type_id: type.id, count: 1 });
    expectRateHeaders(await order(1).expect(201), 2, 1);
    expectRateHeaders(await order(2).expect(201), 2, 0);
    const refused = await order(3);
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 429, code: RATE_LIMITED });
    expectRefusalHeaders(refused, 2);
    expect((await author.get(`/admin/v1/projects/${project.id}/orders`).expect(200)).body.items).toHaveLength(2);
    const other = (await admin.createAuthor()).client;
    const otherProject = await other.createProject();
    const otherType = await createType(other, otherProject.id);
    await other
      .post(`/admin/v1/projects/${otherProject.id}/orders`, { order_id: 'rl-1', card_type_id: otherType.id, count: 1 })
      .expect(201);
  });
});

/** Needs DATABASE_URL and REDIS_URL: two instances of one deployment share the counts through Redis. */
const describeShared = process.env.DATABASE_URL && process.env.REDIS_URL ? describe : describe.skip;

describeShared('request-rate limits across two instances sharing Redis (e2e)', () => {
  let one: TestApp;
  let two: TestApp;
  let author: AdminClient;

  beforeAll(async () => {
    one = await startTestApp(LOW);
    two = await startTestApp(LOW, { shareWith: one });
    author = (await (await AdminClient.asPlatformAdmin(one)).createAuthor()).client;
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  itInOneWindow('counts one address on both instances together and refuses on either', async () => {
    const project = await author.createProject();
    const address = uniqueAddress();
    expectRateHeaders(await sdkRegister(one, project, unique('m'), address).expect(200), 2, 1);
    expectRateHeaders(await sdkRegister(two, project, unique('m'), address).expect(200), 2, 0);
    expectStandardFailure(await sdkRegister(one, project, unique('m'), address), 429, RATE_LIMITED);
    expectStandardFailure(await sdkRegister(two, project, unique('m'), address), 429, RATE_LIMITED);
  });

  itInOneWindow(
    'admits exactly the limit of 10 concurrent registrations from one address split across both instances',
    async () => {
      const project = await author.createProject();
      const address = uniqueAddress();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => sdkRegister(i % 2 ? two : one, project, unique('x'), address)),
      );
      expect(answers.filter((res) => res.status === 200)).toHaveLength(2);
      expect(answers.filter((res) => res.status === 429 && res.body.code === RATE_LIMITED)).toHaveLength(8);
    },
  );
});
