import { getRepositoryToken } from '@nestjs/typeorm';
import type { Response } from 'supertest';
import { Repository } from 'typeorm';
import { AppUser } from '../../../src/app-users/app-user.entity';
import { hashToken } from '../../../src/core/crypto/tokens';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { withPlatformInterface } from '../../support/platform-state';
import { signedPost } from '../../support/signing';
import {
  cardHeartbeat,
  CODES,
  expectStandardFailure,
  parseUtcWallClock,
  sdkLogin,
  sessionRepo,
  TIMESTAMP,
} from '../../support/standard';
import { startTestApp, TestApp, unique } from '../../support/test-app';
import { expectLegacyFailure } from '../../support/legacy';

/** Program users over the SDK and the compatibility routes (spec "Program user (SDK)"; decisions §5, §6). */

const REGISTER = '/api/v1/users/register';
const LOGIN = '/api/v1/users/login';
const HEARTBEAT = '/api/v1/users/heartbeat';
const COMPAT_REGISTER = '/api/app-users/register';
const COMPAT_LOGIN = '/api/app-users/login';
const PASSWORD = 'correct-horse-1';

const USER = {
  USERNAME_TAKEN: 30001,
  BAD_CREDENTIALS: 30002,
  USER_BANNED: 30003,
  MACHINE_MISMATCH: 30004,
  UNSUPPORTED_MEDIA_TYPE: 10007,
} as const;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe('program users: SDK and compatibility register, login, heartbeat (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
  });
  afterAll(() => t.close());

  const users = () => t.app.get<Repository<AppUser>>(getRepositoryToken(AppUser));

  function signed(path: string, target: Project, body: Record<string, string>) {
    return signedPost(t, path, { app: target.program_id, ...body }, 'json', target.api_secret);
  }
  const register = (target: Project, username: string, machine = 'm-1', password = PASSWORD) =>
    signed(REGISTER, target, { username, password, machine_id: machine });
  const login = (target: Project, username: string, machine = 'm-1', password = PASSWORD) =>
    signed(LOGIN, target, { username, password, machine_id: machine });
  function heartbeat(token: string, machine = 'm-1') {
    return t.http().post(HEARTBEAT).set('Authorization', `Bearer ${token}`).send({ machine_id: machine });
  }
  function compat(path: string, fields: Record<string, string>) {
    return t.http().post(path).type('form').send(new URLSearchParams(fields).toString());
  }

  /** Registers a fresh user and logs it in; answers its id, name and session token. */
  async function session(target: Project = project, machine = 'm-1') {
    const username = unique('u');
    const reg = await register(target, username, machine).expect(200);
    expect(reg.body.code).toBe(0);
    const res = await login(target, username, machine).expect(200);
    expect(res.body.code).toBe(0);
    return { userId: reg.body.data.user_id as number, username, token: res.body.data.session_token as string };
  }

  async function projectWithPolicy(policy: 'rebind' | 'locked' | 'free'): Promise<Project> {
    const target = await author.createProject();
    await author.patch(`/admin/v1/projects/${target.id}`, { user_machine_policy: policy }).expect(200);
    return target;
  }

  /** A standard BAD_REQUEST whose details name the field. */
  function expectBadField(res: Response, field: string): void {
    expectStandardFailure(res, 400, CODES.BAD_REQUEST);
    expect(JSON.stringify(res.body.details)).toMatch(new RegExp(`\\b${field}\\b`));
  }

  describe('success bodies', () => {
    it('register answers data {user_id, username, status} in the standard envelope', async () => {
      const username = unique('Reg.User-');
      const res = await register(project, username).expect(200);
      expect(res.body).toEqual({
        code: 0,
        success: true,
        msg: expect.any(String),
        data: { user_id: expect.any(Number), username, status: 'active' },
        request_id: res.headers['x-request-id'],
      });
      expect(Number.isInteger(res.body.data.user_id)).toBe(true);
    });

    it('login answers data {profile, session_token, session_expires_at, machine_id}', async () => {
      const username = unique('login');
      const reg = await register(project, username, 'pc-1').expect(200);
      const before = Date.now();
      const res = await login(project, username, 'pc-1').expect(200);
      expect(res.body).toEqual({
        code: 0,
        success: true,
        msg: expect.any(String),
        data: {
          profile: {
            user_id: reg.body.data.user_id,
            username,
            status: 'active',
            created_at: expect.stringMatching(TIMESTAMP),
            created_at_iso: expect.any(String),
            last_login_at: expect.stringMatching(TIMESTAMP),
            last_login_at_iso: expect.any(String),
          },
          session_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          session_expires_at: expect.stringMatching(TIMESTAMP),
          session_expires_at_iso: expect.any(String),
          machine_id: 'pc-1',
          heartbeat_interval_seconds: 60,
        },
        request_id: res.headers['x-request-id'],
      });
      // The project's session_ttl_seconds (default 600) from now, in the service time zone (UTC in tests).
      const expires = parseUtcWallClock(res.body.data.session_expires_at);
      expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 599_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 601_000);
      expect(Math.abs(parseUtcWallClock(res.body.data.profile.last_login_at) - Date.now())).toBeLessThan(10_000);
    });

    it('heartbeat (Bearer, JSON {machine_id}) answers data {user_id, session_expires_at, server_time}', async () => {
      const { userId, token } = await session();
      const res = await heartbeat(token).expect(200);
      expect(res.body).toEqual({
        code: 0,
        success: true,
        msg: expect.any(String),
        data: {
          user_id: userId,
          session_expires_at: expect.stringMatching(TIMESTAMP),
          session_expires_at_iso: expect.any(String),
          server_time: expect.any(Number),
        },
        request_id: res.headers['x-request-id'],
      });
      expect(Math.abs(res.body.data.server_time - Date.now() / 1000)).toBeLessThan(10);
    });

    it('files a refused heartbeat (another machine) under user_heartbeat like an accepted one', async () => {
      const { token } = await session();
      const refused = await heartbeat(token, 'm-other').expect(200);
      expect(refused.body.code).not.toBe(0);
      const requestId = refused.headers['x-request-id'];
      let entry: { interface: string | null; result_code: number } | undefined;
      for (let attempt = 0; attempt < 50 && !entry; attempt++) {
        const res = await author.get(`/admin/v1/projects/${project.id}/requests/${requestId}`);
        if (res.status === 200) entry = res.body;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(entry).toMatchObject({ interface: 'user_heartbeat', result_code: refused.body.code });
    });

    it('stores the password only as an argon2id hash and never echoes it', async () => {
      const username = unique('hash');
      const reg = await register(project, username).expect(200);
      const row = await users()
        .createQueryBuilder('u')
        .addSelect('u.passwordHash')
        .where('u.id = :id', { id: reg.body.data.user_id })
        .getOneOrFail();
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(reg.body)).not.toContain(PASSWORD);
    });
  });

  describe('bad input', () => {
    it.each([
      ['too short', 'ab'],
      ['too long', 'a'.repeat(33)],
      ['with a space', 'bad name'],
      ['with a disallowed character', 'bad@name'],
      ['non-ASCII', 'usér'],
    ])('refuses a username %s with BAD_REQUEST naming username', async (_label, username) => {
      expectBadField(await register(project, username), 'username');
      expectBadField(await login(project, username), 'username');
    });

    it('accepts usernames of exactly 3 and 32 characters of [A-Za-z0-9_.-]', async () => {
      expect((await register(project, `a.${unique('')}`.slice(0, 3)).expect(200)).body.code).toBe(0);
      const long = (unique('L_-.') + 'x'.repeat(32)).slice(0, 32);
      expect((await register(project, long).expect(200)).body.data.username).toBe(long);
    });

    it('refuses a password shorter than 6 or longer than 128 characters with BAD_REQUEST naming password', async () => {
      expectBadField(await register(project, unique('pw'), 'm', '12345'), 'password');
      expectBadField(await register(project, unique('pw'), 'm', 'x'.repeat(129)), 'password');
      expectBadField(await login(project, unique('pw'), 'm', '12345'), 'password');
      expect((await register(project, unique('pw'), 'm', '123456').expect(200)).body.code).toBe(0);
      expect((await register(project, unique('pw'), 'm', 'x'.repeat(128)).expect(200)).body.code).toBe(0);
    });

    it('refuses a machine_id that is empty or longer than 128 characters with BAD_REQUEST naming machine_id', async () => {
      expectBadField(await register(project, unique('mid'), ''), 'machine_id');
      expectBadField(await login(project, unique('mid'), 'm'.repeat(129)), 'machine_id');
      const { token } = await session();
      expectBadField(await heartbeat(token, ''), 'machine_id');
      expectBadField(await t.http().post(HEARTBEAT).set('Authorization', `Bearer ${token}`).send({}), 'machine_id');
    });

    it('refuses a missing field with BAD_REQUEST naming it', async () => {
      const res = await signedPost(
        t,
        REGISTER,
        { app: project.program_id, username: unique('nopw'), machine_id: 'm' },
        'json',
        project.api_secret,
      );
      expectBadField(res, 'password');
    });
  });

  describe('accounts', () => {
    it('answers USERNAME_TAKEN 30001 (HTTP 200) for a taken username in any case', async () => {
      const username = unique('Taken');
      await register(project, username).expect(200);
      for (const variant of [username, username.toUpperCase(), username.toLowerCase()]) {
        const res = await register(project, variant).expect(200);
        expectStandardFailure(res, 200, USER.USERNAME_TAKEN);
      }
      expect(await users().createQueryBuilder('u').where('lower(u.username) = lower(:n)', { n: username }).getCount()).toBe(1);
    });

    it('logs in with the username in any case', async () => {
      const username = unique('Case');
      await register(project, username).expect(200);
      const res = await login(project, username.toUpperCase()).expect(200);
      expect(res.body.data.profile.username).toBe(username);
    });

    it('answers BAD_CREDENTIALS 30002 for a wrong password and for an unknown user, without saying which part was wrong', async () => {
      const username = unique('cred');
      await register(project, username).expect(200);
      const wrongPassword = await login(project, username, 'm-1', 'wrong-password').expect(200);
      const unknownUser = await login(project, unique('nobody')).expect(200);
      expectStandardFailure(wrongPassword, 200, USER.BAD_CREDENTIALS);
      expectStandardFailure(unknownUser, 200, USER.BAD_CREDENTIALS);
      expect(wrongPassword.body.msg).toBe(unknownUser.body.msg);
    });

    it('answers USER_BANNED 30003 to a banned user with the right password (a wrong one stays BAD_CREDENTIALS)', async () => {
      const { userId, username } = await session();
      await author.patch(`/admin/v1/projects/${project.id}/app-users/${userId}`, { status: 'banned' }).expect(200);
      expectStandardFailure(await login(project, username).expect(200), 200, USER.USER_BANNED);
      expectStandardFailure(await login(project, username, 'm-1', 'not-the-password').expect(200), 200, USER.BAD_CREDENTIALS);
      await author.patch(`/admin/v1/projects/${project.id}/app-users/${userId}`, { status: 'active' }).expect(200);
      expect((await login(project, username).expect(200)).body.code).toBe(0);
    });

    it('creates exactly one user from 10 concurrent registrations of one username', async () => {
      const username = unique('race');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => register(project, i % 2 ? username.toUpperCase() : username, `race-${i}`)),
      );
      const codes = results.map((r) => r.body.code).sort();
      expect(codes).toEqual([0, ...Array(9).fill(USER.USERNAME_TAKEN)]);
      expect(
        await users()
          .createQueryBuilder('u')
          .where('u.project_id = :p AND lower(u.username) = lower(:n)', { p: project.id, n: username })
          .getCount(),
      ).toBe(1);
    });
  });

  describe('machine policies', () => {
    it("rebind (default): the login machine becomes the bound one and the user's other session ends", async () => {
      const { userId, username, token: first } = await session(project, 'old-pc');
      expect((await heartbeat(first, 'old-pc')).body.code).toBe(0);
      const second = await login(project, username, 'new-pc').expect(200);
      expect(second.body.data.machine_id).toBe('new-pc');
      expectStandardFailure(await heartbeat(first, 'old-pc'), 401, CODES.SESSION_INVALID);
      expect((await heartbeat(second.body.data.session_token, 'new-pc')).body.code).toBe(0);
      expect((await author.get(`/admin/v1/projects/${project.id}/app-users/${userId}`).expect(200)).body.machine_id).toBe(
        'new-pc',
      );
    });

    it('locked: only the first machine logs in; another is MACHINE_MISMATCH 30004 and ends nothing', async () => {
      const target = await projectWithPolicy('locked');
      const { userId, username, token } = await session(target, 'first-pc');
      const other = await login(target, username, 'second-pc').expect(200);
      expectStandardFailure(other, 200, USER.MACHINE_MISMATCH);
      expect((await heartbeat(token, 'first-pc')).body.code).toBe(0);
      const again = await login(target, username, 'first-pc').expect(200);
      expect(again.body.data.machine_id).toBe('first-pc');
      // After the author unbinds, the next machine to log in is the first one again.
      await author.patch(`/admin/v1/projects/${target.id}/app-users/${userId}`, { machine_id: null }).expect(200);
      expectStandardFailure(await heartbeat(token, 'first-pc'), 401, CODES.SESSION_INVALID);
      expect((await login(target, username, 'second-pc').expect(200)).body.data.machine_id).toBe('second-pc');
      expectStandardFailure(await login(target, username, 'first-pc'), 200, USER.MACHINE_MISMATCH);
    });

    it('free: any machine logs in, sessions on several machines live side by side', async () => {
      const target = await projectWithPolicy('free');
      const { username, token: first } = await session(target, 'pc-a');
      const second = await login(target, username, 'pc-b').expect(200);
      expect(second.body.data.machine_id).toBe('pc-b');
      expect((await heartbeat(first, 'pc-a')).body.code).toBe(0);
      expect((await heartbeat(second.body.data.session_token, 'pc-b')).body.code).toBe(0);
    });

    it("answers MACHINE_MISMATCH on a heartbeat from another machine than the session's", async () => {
      const { token } = await session(project, 'hb-pc');
      expectStandardFailure(await heartbeat(token, 'elsewhere'), 200, USER.MACHINE_MISMATCH);
      expect((await heartbeat(token, 'hb-pc')).body.code).toBe(0);
    });
  });

  describe('sessions', () => {
    it('answers SESSION_TYPE_MISMATCH 30102 to a card session token on the user heartbeat', async () => {
      const card = await insertCard(t, project.id);
      const res = await sdkLogin(t, project.api_secret, {
        app: project.program_id,
        card_key: card.code,
        machine_id: 'card-pc',
      }).expect(200);
      expectStandardFailure(await heartbeat(res.body.data.session_token, 'card-pc'), 401, CODES.SESSION_TYPE_MISMATCH);
    });

    it('answers SESSION_TYPE_MISMATCH 30102 to a user session token on the card heartbeat', async () => {
      const { token } = await session(project, 'user-pc');
      expectStandardFailure(await cardHeartbeat(t, token, 'user-pc'), 401, CODES.SESSION_TYPE_MISMATCH);
      expect((await heartbeat(token, 'user-pc')).body.code).toBe(0);
    });

    it('answers SESSION_INVALID without a token, with an unknown one and with a compatible (non-session) token', async () => {
      expectStandardFailure(await t.http().post(HEARTBEAT).send({ machine_id: 'm' }), 401, CODES.SESSION_INVALID);
      expectStandardFailure(await heartbeat('x'.repeat(43)), 401, CODES.SESSION_INVALID);
      const username = unique('cmp');
      await register(project, username).expect(200);
      const compatLogin = await compat(COMPAT_LOGIN, {
        app: project.program_id,
        username,
        password: PASSWORD,
        machine_id: 'm-1',
      }).expect(200);
      expectStandardFailure(await heartbeat(compatLogin.body.data.token), 401, CODES.SESSION_INVALID);
    });

    it('never accepts a token again after SESSION_INVALID (forced offline, then the user is fine again)', async () => {
      const { userId, username, token } = await session();
      await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { user_id: userId }).expect(200, { revoked: 1 });
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
      // A new login on the same machine opens a new session; the old token stays dead.
      const again = await login(project, username).expect(200);
      expect((await heartbeat(again.body.data.session_token)).body.code).toBe(0);
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
    });

    it('never accepts a token again once its session expired', async () => {
      const { token } = await session();
      await sessionRepo(t).update({ tokenHash: hashToken(token) }, { expiresAt: new Date(Date.now() - 1000) });
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
    });

    it('ends the session at the next heartbeat after a ban, and an unban does not bring it back', async () => {
      const { userId, token } = await session();
      expect((await heartbeat(token)).body.code).toBe(0);
      await author.patch(`/admin/v1/projects/${project.id}/app-users/${userId}`, { status: 'banned' }).expect(200);
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
      await author.patch(`/admin/v1/projects/${project.id}/app-users/${userId}`, { status: 'active' }).expect(200);
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
    });

    it('re-checks the user on each heartbeat: a ban written by any path ends the live session', async () => {
      const { userId, token } = await session();
      await users().update({ id: userId }, { status: 'banned' });
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
      await users().update({ id: userId }, { status: 'active' });
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
    });

    it('ends the sessions of a user whose password the author resets; the new password logs in', async () => {
      const { userId, username, token } = await session();
      await author.patch(`/admin/v1/projects/${project.id}/app-users/${userId}`, { password: 'brand-new-pass' }).expect(200);
      expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
      expectStandardFailure(await login(project, username), 200, USER.BAD_CREDENTIALS);
      expect((await login(project, username, 'm-1', 'brand-new-pass').expect(200)).body.code).toBe(0);
    });
  });

  describe('cross-project isolation', () => {
    it('treats the same username in two projects as two users with their own passwords', async () => {
      const other = await author.createProject();
      const username = unique('twin');
      const a = await register(project, username, 'm-1', 'password-of-a').expect(200);
      const b = await register(other, username, 'm-1', 'password-of-b').expect(200);
      expect(a.body.code).toBe(0);
      expect(b.body.code).toBe(0);
      expect(a.body.data.user_id).not.toBe(b.body.data.user_id);
      expectStandardFailure(await login(other, username, 'm-1', 'password-of-a'), 200, USER.BAD_CREDENTIALS);
      const inB = await login(other, username, 'm-1', 'password-of-b').expect(200);
      expect(inB.body.data.profile.user_id).toBe(b.body.data.user_id);
      // Banning the twin in one project leaves the other alone.
      await author.patch(`/admin/v1/projects/${other.id}/app-users/${b.body.data.user_id}`, { status: 'banned' }).expect(200);
      expect((await login(project, username, 'm-1', 'password-of-a').expect(200)).body.code).toBe(0);
    });

    it('keeps a session to its own project: another project cannot see, revoke or serve it', async () => {
      const other = await author.createProject();
      const { userId, token } = await session(project, 'iso-pc');
      await author.get(`/admin/v1/projects/${other.id}/app-users/${userId}`).expect(404);
      await author.patch(`/admin/v1/projects/${other.id}/app-users/${userId}`, { status: 'banned' }).expect(404);
      await author.post(`/admin/v1/projects/${other.id}/sessions/revoke`, { user_id: userId }).expect(200, { revoked: 0 });
      await author.post(`/admin/v1/projects/${other.id}/sessions/revoke`, {}).expect(200);
      const beat = await heartbeat(token, 'iso-pc').expect(200);
      expect(beat.body.data.user_id).toBe(userId);
      // The other project's program key does not take this user's credentials either.
      expectStandardFailure(
        await login(other, (await users().findOneByOrFail({ id: userId })).username, 'iso-pc'),
        200,
        USER.BAD_CREDENTIALS,
      );
    });

    it("signs with the project's own api_secret: another project's secret is SIGNATURE_INVALID", async () => {
      const other = await author.createProject();
      const res = await signedPost(
        t,
        LOGIN,
        { app: project.program_id, username: unique('sig'), password: PASSWORD, machine_id: 'm' },
        'json',
        other.api_secret,
      );
      expectStandardFailure(res, 401, CODES.SIGNATURE_INVALID);
    });
  });

  describe('interface authorization', () => {
    const authorize = (target: Project, name: string, authorized: boolean, dailyQuota: number | null = null) =>
      admin.put(`/admin/v1/projects/${target.id}/interfaces/${name}`, { authorized, daily_quota: dailyQuota }).expect(200);

    it('answers INTERFACE_NOT_AUTHORIZED 10206 when user_register, user_login or user_heartbeat is not authorized', async () => {
      const target = await author.createProject();
      const { username, token } = await session(target);
      await authorize(target, 'user_register', false);
      expectStandardFailure(await register(target, unique('no')), 403, CODES.INTERFACE_NOT_AUTHORIZED);
      const legacy = await compat(COMPAT_REGISTER, {
        app: target.program_id,
        username: unique('no'),
        password: PASSWORD,
        machine_id: 'm',
      }).expect(403);
      expect(legacy.body).toMatchObject({ code: CODES.INTERFACE_NOT_AUTHORIZED, msg: expect.any(String) });
      await authorize(target, 'user_login', false);
      expectStandardFailure(await login(target, username), 403, CODES.INTERFACE_NOT_AUTHORIZED);
      await authorize(target, 'user_heartbeat', false);
      expectStandardFailure(await heartbeat(token), 403, CODES.INTERFACE_NOT_AUTHORIZED);
      await authorize(target, 'user_heartbeat', true);
      expect((await heartbeat(token)).body.code).toBe(0);
    });

    it('answers QUOTA_EXCEEDED 10301 past the daily quota of user_register and user_login (compatibility routes count too)', async () => {
      const target = await author.createProject();
      const username = unique('quota');
      await register(target, username).expect(200);
      await authorize(target, 'user_register', true, 2);
      expect((await register(target, unique('q1')).expect(200)).body.code).toBe(0);
      expect(
        (await compat(COMPAT_REGISTER, { app: target.program_id, username: unique('q2'), password: PASSWORD, machine_id: 'm' }))
          .body.code,
      ).toBe(1);
      expectStandardFailure(await register(target, unique('q3')), 429, CODES.QUOTA_EXCEEDED);
      await authorize(target, 'user_login', true, 1);
      expect((await login(target, username).expect(200)).body.code).toBe(0);
      expectStandardFailure(await login(target, username), 429, CODES.QUOTA_EXCEEDED);
    });

    it('counts user_heartbeat against its own daily quota', async () => {
      const target = await author.createProject();
      const { token } = await session(target);
      await authorize(target, 'user_heartbeat', true, 2);
      expect((await heartbeat(token)).body.code).toBe(0);
      expect((await heartbeat(token)).body.code).toBe(0);
      expectStandardFailure(await heartbeat(token), 429, CODES.QUOTA_EXCEEDED);
    });

    it('answers INTERFACE_DISABLED 10207 while user_login is switched off platform-wide', async () => {
      const target = await author.createProject();
      const username = unique('plat');
      await register(target, username).expect(200);
      await withPlatformInterface(admin, 'user_login', false, async () => {
        const res = await signedPost(
          t,
          LOGIN,
          { app: target.program_id, username, password: PASSWORD, machine_id: 'm' },
          'json',
          target.api_secret,
        );
        expectStandardFailure(res, 403, CODES.INTERFACE_DISABLED);
      });
      expect((await login(target, username).expect(200)).body.code).toBe(0);
    });

    it('needs the standard API basic package: PACKAGE_NOT_ENABLED 10205 without it', async () => {
      const target = await author.createProject();
      await admin
        .put(`/admin/v1/projects/${target.id}/entitlements`, { basic_package: false, plan_level: 0, licence_verify: false })
        .expect(200);
      expectStandardFailure(await register(target, unique('pkg')), 403, CODES.PACKAGE_NOT_ENABLED);
    });
  });

  describe('compatibility routes /api/app-users/*', () => {
    /** The exact legacy failure envelope {code:N, msg, request_id} (details allowed). */

    it('registers with form fields and answers the legacy envelope {code:1, msg, data, request_id}', async () => {
      const username = unique('legacy');
      const res = await compat(COMPAT_REGISTER, {
        app: project.program_id,
        username,
        password: PASSWORD,
        machine_id: 'lg-pc',
      }).expect(200);
      expect(res.body).toEqual({
        code: 1,
        msg: expect.any(String),
        data: { user_id: expect.any(Number), username, status: 'active' },
        request_id: res.headers['x-request-id'],
      });
    });

    it('logs in with code 1 and a compatible token, and opens no SDK session', async () => {
      const username = unique('legacy');
      const reg = await compat(COMPAT_REGISTER, {
        app: project.program_id,
        username,
        password: PASSWORD,
        machine_id: 'lg-pc',
      }).expect(200);
      const res = await compat(COMPAT_LOGIN, {
        app: project.program_id,
        username,
        password: PASSWORD,
        machine_id: 'lg-pc',
      }).expect(200);
      expect(res.body).toEqual({
        code: 1,
        msg: expect.any(String),
        data: {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          profile: {
            user_id: reg.body.data.user_id,
            username,
            status: 'active',
            created_at: expect.stringMatching(TIMESTAMP),
            created_at_iso: expect.any(String),
            last_login_at: expect.stringMatching(TIMESTAMP),
            last_login_at_iso: expect.any(String),
          },
          machine_id: 'lg-pc',
        },
        request_id: res.headers['x-request-id'],
      });
      expect(await sessionRepo(t).countBy({ userId: reg.body.data.user_id, type: 'app_user' })).toBe(0);
    });

    it('shares accounts with the SDK: a user registered over the SDK logs in on the compatibility route and vice versa', async () => {
      const viaSdk = unique('both');
      await register(project, viaSdk).expect(200);
      expect(
        (await compat(COMPAT_LOGIN, { app: project.program_id, username: viaSdk, password: PASSWORD, machine_id: 'm-1' })).body
          .code,
      ).toBe(1);
      const viaCompat = unique('both');
      await compat(COMPAT_REGISTER, {
        app: project.program_id,
        username: viaCompat,
        password: PASSWORD,
        machine_id: 'm-1',
      }).expect(200);
      expect((await login(project, viaCompat).expect(200)).body.code).toBe(0);
    });

    it('answers every rule in the legacy envelope: taken, bad credentials, banned, machine mismatch, bad field', async () => {
      const username = unique('lgrule');
      const fields = { app: project.program_id, username, password: PASSWORD, machine_id: 'm-1' };
      await compat(COMPAT_REGISTER, fields).expect(200);
      expectLegacyFailure(
        await compat(COMPAT_REGISTER, { ...fields, username: username.toUpperCase() }),
        200,
        USER.USERNAME_TAKEN,
      );
      expectLegacyFailure(await compat(COMPAT_LOGIN, { ...fields, password: 'wrong-password' }), 200, USER.BAD_CREDENTIALS);
      const badField = await compat(COMPAT_LOGIN, { ...fields, username: 'x' });
      expectLegacyFailure(badField, 400, CODES.BAD_REQUEST);
      expect(JSON.stringify(badField.body.details)).toMatch(/\busername\b/);
      const locked = await projectWithPolicy('locked');
      const lockedFields = { ...fields, app: locked.program_id };
      await compat(COMPAT_REGISTER, lockedFields).expect(200);
      expectLegacyFailure(await compat(COMPAT_LOGIN, { ...lockedFields, machine_id: 'other' }), 200, USER.MACHINE_MISMATCH);
      const id = (await users().findOneByOrFail({ projectId: project.id, username })).id;
      await author.patch(`/admin/v1/projects/${project.id}/app-users/${id}`, { status: 'banned' }).expect(200);
      expectLegacyFailure(await compat(COMPAT_LOGIN, fields), 200, USER.USER_BANNED);
    });

    it('refuses a missing app, an internal project key and an unknown program before anything else', async () => {
      expectLegacyFailure(
        await compat(COMPAT_LOGIN, { username: 'abc', password: PASSWORD, machine_id: 'm' }),
        400,
        CODES.APP_REQUIRED,
      );
      expectLegacyFailure(
        await compat(COMPAT_LOGIN, { app: project.id, username: 'abc', password: PASSWORD, machine_id: 'm' }),
        400,
        CODES.INTERNAL_KEY_NOT_ACCEPTED,
      );
      expectLegacyFailure(
        await compat(COMPAT_LOGIN, { app: '99999999', username: 'abc', password: PASSWORD, machine_id: 'm' }),
        404,
        CODES.PROGRAM_NOT_FOUND,
      );
      const json = await t
        .http()
        .post(COMPAT_LOGIN)
        .send({ app: project.program_id, username: 'abc', password: PASSWORD, machine_id: 'm' });
      expectLegacyFailure(json, 415, USER.UNSUPPORTED_MEDIA_TYPE);
    });

    it("rebinds on a compatibility login too, ending the user's SDK session", async () => {
      const { username, token } = await session(project, 'sdk-pc');
      const res = await compat(COMPAT_LOGIN, {
        app: project.program_id,
        username,
        password: PASSWORD,
        machine_id: 'legacy-pc',
      }).expect(200);
      expect(res.body.data.machine_id).toBe('legacy-pc');
      expectStandardFailure(await heartbeat(token, 'sdk-pc'), 401, CODES.SESSION_INVALID);
    });
  });

  it('never writes a password to the logs or to any response', async () => {
    const secret = `Pw-${unique('never-logged')}`;
    const username = unique('quiet');
    const bodies: string[] = [];
    const keep = async (res: PromiseLike<Response>) => bodies.push(JSON.stringify((await res).body));
    await keep(register(project, username, 'm-1', secret));
    await keep(login(project, username, 'm-1', secret));
    await keep(login(project, username, 'm-1', `${secret}-wrong`));
    await keep(register(project, 'x', 'm-1', secret));
    await keep(register(project, unique('short'), 'm-1', 'Zq9!x'));
    await keep(compat(COMPAT_REGISTER, { app: project.program_id, username: unique('q'), password: secret, machine_id: 'm' }));
    await keep(compat(COMPAT_LOGIN, { app: project.program_id, username, password: secret, machine_id: 'm-1' }));
    const id = (await users().findOneByOrFail({ projectId: project.id, username })).id;
    await keep(author.patch(`/admin/v1/projects/${project.id}/app-users/${id}`, { password: `${secret}-reset` }));
    await keep(author.get(`/admin/v1/projects/${project.id}/app-users?q=${username}`));
    for (const text of [...bodies, ...t.logs]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('Zq9!x');
      expect(text).not.toMatch(/\$argon2/);
      expect(text).not.toMatch(/password_hash|passwordHash/);
    }
  });
});
