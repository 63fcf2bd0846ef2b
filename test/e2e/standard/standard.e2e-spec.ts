import type { Response } from 'supertest';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { withPlatformInterface } from '../../support/platform-state';
import { signedPost } from '../../support/signing';
import {
  CARD_HEARTBEAT,
  CODES,
  expectStandardFailure,
  SDK_LOGIN,
  sdkLogin,
  sessionRepo,
  TIMESTAMP,
  V3_LOGIN,
  v3Login,
  wallClock,
} from '../../support/standard';
import { TestApp } from '../../support/test-app';
import { buildWorld } from '../../support/world';
import { Card } from '../../../src/cards/card.entity';
import { AppConfig } from '../../../src/config/app-config';

describe('standard family: V3 and SDK card login, card heartbeat (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let timeZone: string;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;

  beforeAll(async () => {
    ({ t, admin, author, project } = await buildWorld());
    timeZone = t.app.get(AppConfig).APP_TIMEZONE;
  });
  afterAll(() => t.close());

  const v3 = (body: Record<string, string>, options = {}) => v3Login(t, project.api_secret, body, options);
  const sdk = (body: Record<string, string>, options = {}) => sdkLogin(t, project.api_secret, body, options);

  it('logs a card in over V3 with the standard success body and no session', async () => {
    const card = await insertCard(t, project.id);
    const res = await v3({ app: project.program_id, kami: card.code, imei: 'dev-1' }).expect(200);
    expect(res.body).toEqual({
      code: 0,
      success: true,
      msg: expect.any(String),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      statecode: 'active',
      data: {
        id: card.id,
        code: card.code,
        machine_code: 'dev-1',
        features: [],
        trial: false,
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        expires_at_iso: expect.any(String),
      },
      request_id: res.headers['x-request-id'],
    });
    const hb = await t
      .http()
      .post('/api/v1/cards/heartbeat')
      .set('Authorization', `Bearer ${res.body.token}`)
      .send({ machine_id: 'dev-1' })
      .expect(401);
    expect(hb.body).toMatchObject({ code: 30101, success: false });
  });

  it('rejects a request without app with APP_REQUIRED before looking at the signature', async () => {
    const res = await t.http().post('/api/legacy/v3/cards/login').type('form').send('kami=x&imei=y').expect(400);
    expect(res.body).toMatchObject({ code: 10004, success: false });
  });

  it('opens a card session over the SDK and keeps it alive with heartbeats until forced offline', async () => {
    const card = await insertCard(t, project.id);
    const login = await sdk({ app: project.program_id, card_key: card.code, machine_id: 'sdk-dev' }).expect(200);
    expect(login.body).toMatchObject({
      code: 0,
      success: true,
      data: { id: card.id, session_token: expect.any(String), session_expires_at: expect.any(String) },
    });
    const token = login.body.data.session_token;
    const beat = await t
      .http()
      .post('/api/v1/cards/heartbeat')
      .set('Authorization', `Bearer ${token}`)
      .send({ machine_id: 'sdk-dev' })
      .expect(200);
    expect(beat.body).toMatchObject({
      code: 0,
      success: true,
      data: { card_id: card.id, session_expires_at: expect.any(String), server_time: expect.any(Number) },
    });
    const other = await t
      .http()
      .post('/api/v1/cards/heartbeat')
      .set('Authorization', `Bearer ${token}`)
      .send({ machine_id: 'elsewhere' })
      .expect(200);
    expect(other.body.code).toBe(30004);
    await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: card.id }).expect(200, { revoked: 1 });
    const after = await t
      .http()
      .post('/api/v1/cards/heartbeat')
      .set('Authorization', `Bearer ${token}`)
      .send({ machine_id: 'sdk-dev' })
      .expect(401);
    expect(after.body.code).toBe(30101);
  });

  type Project = Awaited<ReturnType<AdminClient['createProject']>>;
  type FamilyName = 'v3' | 'sdk';
  const FAMILIES: FamilyName[] = ['v3', 'sdk'];

  /** A signed card login of one family against a project. */
  function loginBy(family: FamilyName, target: Project, cardKey: string, machine: string) {
    return family === 'v3'
      ? v3Login(t, target.api_secret, { app: target.program_id, kami: cardKey, imei: machine })
      : sdkLogin(t, target.api_secret, { app: target.program_id, card_key: cardKey, machine_id: machine });
  }

  const reload = (card: Card) => cardRepos(t).cards.findOneByOrFail({ id: card.id });

  /** The card's state a refused login must leave untouched. */
  async function snapshot(card: Card) {
    const { status, activatedAt, expiresAt, useCount, lastLoginAt } = await reload(card);
    const devices = (await cardRepos(t).devices.findBy({ cardId: card.id })).map((d) => d.machineCode).sort();
    return { status, activatedAt, expiresAt, useCount, lastLoginAt, devices };
  }

  /** Exactly one login-log row for the answer: this family, card_login, this result code and project. */
  async function expectOneLogRow(
    res: Response,
    family: FamilyName | 'connect',
    resultCode: number,
    projectId: string,
    cardId?: number | null,
  ) {
    const rows = await cardRepos(t).logs.findBy({ requestId: res.headers['x-request-id'] });
    expect(
      rows.map((r) => ({ family: r.family, interface: r.interface, resultCode: r.resultCode, projectId: r.projectId })),
    ).toEqual([{ family, interface: 'card_login', resultCode, projectId }]);
    if (cardId !== undefined) expect(rows[0].cardId).toBe(cardId);
    return rows[0];
  }

  /**
   * Both families refused with the same failure; each refusal writes only its log row (no card,
   * device or session change).
   */
  async function expectRefusedByBothFamilies(target: Project, httpStatus: number, code: number) {
    for (const family of FAMILIES) {
      const card = await insertCard(t, target.id);
      const before = await snapshot(card);
      const sessionsBefore = await sessionRepo(t).countBy({ projectId: target.id });
      const res = await loginBy(family, target, card.code, `gate-${family}`);
      expectStandardFailure(res, httpStatus, code);
      await expectOneLogRow(res, family, code, target.id, null);
      expect(await snapshot(card)).toEqual(before);
      expect(await sessionRepo(t).countBy({ projectId: target.id })).toBe(sessionsBefore);
    }
  }

  const entitlements = (target: Project, basicPackage: boolean) =>
    admin
      .put(`/admin/v1/projects/${target.id}/entitlements`, { basic_package: basicPackage, plan_level: 0, licence_verify: false })
      .expect(200);
  const authorize = (target: Project, name: string, authorized: boolean, dailyQuota: number | null = null) =>
    admin.put(`/admin/v1/projects/${target.id}/interfaces/${name}`, { authorized, daily_quota: dailyQuota }).expect(200);

  describe('success', () => {
    it('answers an SDK login with the exact standard success body plus session_token and session_expires_at', async () => {
      const card = await insertCard(t, project.id);
      const res = await sdk({ app: project.program_id, card_key: card.code, machine_id: 'sdk-body' }).expect(200);
      expect(res.body).toEqual({
        code: 0,
        success: true,
        msg: expect.any(String),
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        statecode: 'active',
        data: {
          id: card.id,
          code: card.code,
          machine_code: 'sdk-body',
          features: [],
          trial: false,
          expires_at: expect.stringMatching(TIMESTAMP),
          expires_at_iso: expect.any(String),
          session_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          session_expires_at: expect.stringMatching(TIMESTAMP),
          session_expires_at_iso: expect.any(String),
          heartbeat_interval_seconds: 60,
        },
        request_id: res.headers['x-request-id'],
      });
      expect(res.body.data.session_token).not.toBe(res.body.token);
    });

    it.each(FAMILIES)(
      'activates an unused card on its first %s login: expires_at = activation + duration, in the service time zone',
      async (family) => {
        const card = await insertCard(t, project.id, { durationSeconds: 3 * 86400 });
        const res = await loginBy(family, project, card.code, `first-${family}`).expect(200);
        const stored = await reload(card);
        expect(stored.status).toBe('active');
        expect(stored.expiresAt!.getTime() - stored.activatedAt!.getTime()).toBe(3 * 86400 * 1000);
        expect(Math.abs(stored.activatedAt!.getTime() - Date.now())).toBeLessThan(10_000);
        expect(res.body.data.expires_at).toBe(wallClock(stored.expiresAt!, timeZone));
        expect(res.body.statecode).toBe('active');
      },
    );

    it.each(FAMILIES)(
      'writes one log row (family %s, result 0) and raises use_count on each successful login',
      async (family) => {
        const card = await insertCard(t, project.id);
        for (let i = 1; i <= 3; i++) {
          const res = await loginBy(family, project, card.code, 'same-device').expect(200);
          expect(res.body.code).toBe(0);
          await expectOneLogRow(res, family, 0, project.id, card.id);
          const stored = await reload(card);
          expect(stored.useCount).toBe(i);
          expect(stored.lastLoginAt).not.toBeNull();
        }
        expect((await cardRepos(t).devices.findBy({ cardId: card.id })).map((d) => d.machineCode)).toEqual(['same-device']);
      },
    );

    it('shows a permanent card (duration 0) as expiring at 9999-12-31 23:59:59 on V3 and SDK', async () => {
      const card = await insertCard(t, project.id, { durationSeconds: 0, deviceLimit: 2 });
      for (const family of FAMILIES) {
        const res = await loginBy(family, project, card.code, `perm-${family}`).expect(200);
        expect(res.body.data.expires_at).toBe('9999-12-31 23:59:59');
      }
      expect((await reload(card)).expiresAt).toBeNull();
    });

    it('binds a new device while bound devices < device_limit, across V3 and SDK', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 2 });
      expect((await loginBy('v3', project, card.code, 'dev-a').expect(200)).body.code).toBe(0);
      expect((await loginBy('sdk', project, card.code, 'dev-b').expect(200)).body.code).toBe(0);
      expect((await loginBy('v3', project, card.code, 'dev-b').expect(200)).body.code).toBe(0);
      expect((await loginBy('sdk', project, card.code, 'dev-a').expect(200)).body.code).toBe(0);
      expect((await snapshot(card)).devices).toEqual(['dev-a', 'dev-b']);
    });

    it('answers a signed login missing a field with BAD_REQUEST 10001 (HTTP 400) and logs nobody in', async () => {
      const card = await insertCard(t, project.id);
      expectStandardFailure(await v3({ app: project.program_id, kami: card.code }), 400, CODES.BAD_REQUEST);
      expectStandardFailure(await v3({ app: project.program_id, imei: 'dev' }), 400, CODES.BAD_REQUEST);
      expectStandardFailure(await sdk({ app: project.program_id, card_key: card.code }), 400, CODES.BAD_REQUEST);
      expectStandardFailure(await sdk({ app: project.program_id, machine_id: 'dev' }), 400, CODES.BAD_REQUEST);
      expect(await snapshot(card)).toMatchObject({ status: 'unused', useCount: 0, devices: [] });
    });
  });

  describe('V3 token is not a session', () => {
    it('creates no session on V3 login, and its token on /api/v1/cards/heartbeat is SESSION_INVALID 30101', async () => {
      const target = await author.createProject();
      const card = await insertCard(t, target.id);
      const res = await v3Login(t, target.api_secret, { app: target.program_id, kami: card.code, imei: 'v3-dev' }).expect(200);
      expect(res.body.data).not.toHaveProperty('session_token');
      expect(await sessionRepo(t).countBy({ projectId: target.id })).toBe(0);
      const hb = await t
        .http()
        .post(CARD_HEARTBEAT)
        .set('Authorization', `Bearer ${res.body.token}`)
        .send({ machine_id: 'v3-dev' });
      expectStandardFailure(hb, 401, CODES.SESSION_INVALID);
    });

    it('does not accept the compatible top-level token of an SDK login as a session token either', async () => {
      const card = await insertCard(t, project.id);
      const res = await sdk({ app: project.program_id, card_key: card.code, machine_id: 'sdk-tok' }).expect(200);
      const hb = await t
        .http()
        .post(CARD_HEARTBEAT)
        .set('Authorization', `Bearer ${res.body.token}`)
        .send({ machine_id: 'sdk-tok' });
      expectStandardFailure(hb, 401, CODES.SESSION_INVALID);
    });
  });

  // Card refusals as V3 and SDK render them: card-refusals-by-family.e2e-spec.ts.
  describe('device limit across V3 and SDK', () => {
    it('binds exactly device_limit devices when 10 new devices race over V3 and SDK', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 3 });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => loginBy(FAMILIES[i % 2], project, card.code, `race-${i}`)),
      );
      expect(results.filter((r) => r.status === 200 && r.body.code === 0)).toHaveLength(3);
      expect(results.filter((r) => r.body.code === CODES.DEVICE_LIMIT_REACHED)).toHaveLength(7);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(3);
      expect((await reload(card)).useCount).toBe(3);
    });
  });

  describe('gates (decisions §3 order), each refusal writing only its log row', () => {
    it('answers PACKAGE_NOT_ENABLED 10205 (HTTP 403) when the basic package is off', async () => {
      const target = await author.createProject();
      await entitlements(target, false);
      await expectRefusedByBothFamilies(target, 403, CODES.PACKAGE_NOT_ENABLED);
      await entitlements(target, true);
      expect((await loginBy('v3', target, (await insertCard(t, target.id)).code, 'back').expect(200)).body.code).toBe(0);
    });

    it('answers VERIFICATION_SWITCH_OFF 10204 (HTTP 403) when the verification switch is off', async () => {
      const target = await author.createProject();
      await author.patch(`/admin/v1/projects/${target.id}`, { verification_enabled: false }).expect(200);
      await expectRefusedByBothFamilies(target, 403, CODES.VERIFICATION_SWITCH_OFF);
    });

    it('answers INTERFACE_NOT_AUTHORIZED 10206 (HTTP 403) when card_login is not authorized for the project', async () => {
      const target = await author.createProject();
      await authorize(target, 'card_login', false);
      await expectRefusedByBothFamilies(target, 403, CODES.INTERFACE_NOT_AUTHORIZED);
      await authorize(target, 'card_login', true);
      expect((await loginBy('sdk', target, (await insertCard(t, target.id)).code, 'back').expect(200)).body.code).toBe(0);
    });

    it('answers INTERFACE_DISABLED 10207 (HTTP 403) while card_login is disabled platform-wide', async () => {
      const target = await author.createProject();
      const v3Card = await insertCard(t, target.id);
      const sdkCard = await insertCard(t, target.id);
      // Platform state: keep the window to the two requests and restore it in any case.
      const [v3Res, sdkRes] = await withPlatformInterface(admin, 'card_login', false, () =>
        Promise.all([
          signedPost(t, V3_LOGIN, { app: target.program_id, kami: v3Card.code, imei: 'off' }, 'form', target.api_secret),
          signedPost(
            t,
            SDK_LOGIN,
            { app: target.program_id, card_key: sdkCard.code, machine_id: 'off' },
            'json',
            target.api_secret,
          ),
        ]),
      );
      expectStandardFailure(v3Res, 403, CODES.INTERFACE_DISABLED);
      expectStandardFailure(sdkRes, 403, CODES.INTERFACE_DISABLED);
      await expectOneLogRow(v3Res, 'v3', CODES.INTERFACE_DISABLED, target.id, null);
      await expectOneLogRow(sdkRes, 'sdk', CODES.INTERFACE_DISABLED, target.id, null);
      for (const card of [v3Card, sdkCard])
        expect(await snapshot(card)).toMatchObject({ status: 'unused', useCount: 0, devices: [] });
      const after = await admin.get('/admin/v1/platform/interfaces').expect(200);
      expect(after.body.items.find((i: { name: string }) => i.name === 'card_login')).toEqual({
        name: 'card_login',
        enabled: true,
      });
    });

    it('answers PROGRAM_DISABLED 10202 (HTTP 403) for a disabled program', async () => {
      const target = await author.createProject();
      await author.patch(`/admin/v1/projects/${target.id}`, { status: 'disabled' }).expect(200);
      await expectRefusedByBothFamilies(target, 403, CODES.PROGRAM_DISABLED);
    });

    it('answers AUTHOR_DISABLED 10203 (HTTP 403) for a program of a disabled author', async () => {
      const other = await admin.createAuthor();
      const target = await other.client.createProject();
      await admin.patch(`/admin/v1/authors/${other.id}`, { status: 'disabled' }).expect(200);
      await expectRefusedByBothFamilies(target, 403, CODES.AUTHOR_DISABLED);
    });

    it('checks the basic package before the verification switch, and the switch before the authorization', async () => {
      const target = await author.createProject();
      await entitlements(target, false);
      await author.patch(`/admin/v1/projects/${target.id}`, { verification_enabled: false }).expect(200);
      await authorize(target, 'card_login', false);
      await expectRefusedByBothFamilies(target, 403, CODES.PACKAGE_NOT_ENABLED);
      await entitlements(target, true);
      await expectRefusedByBothFamilies(target, 403, CODES.VERIFICATION_SWITCH_OFF);
      await author.patch(`/admin/v1/projects/${target.id}`, { verification_enabled: true }).expect(200);
      await expectRefusedByBothFamilies(target, 403, CODES.INTERFACE_NOT_AUTHORIZED);
    });

    it('runs the gates after the signature: a wrongly signed request to a gated program is SIGNATURE_INVALID', async () => {
      const target = await author.createProject();
      await entitlements(target, false);
      const card = await insertCard(t, target.id);
      const res = await v3Login(t, project.api_secret, { app: target.program_id, kami: card.code, imei: 'dev' });
      expectStandardFailure(res, 401, CODES.SIGNATURE_INVALID);
      expect(await cardRepos(t).logs.findBy({ requestId: res.headers['x-request-id'] })).toEqual([]);
    });
  });

  describe('card_login daily quota, shared by V3, SDK and Connect', () => {
    it('admits one V3 + one SDK + one Connect login under a quota of 3; the 4th by any family is QUOTA_EXCEEDED 10301 (HTTP 429)', async () => {
      const target = await author.createProject();
      await openConnectInEveryMode(t, target.id);
      await authorize(target, 'card_login', true, 3);
      const card = await insertCard(t, target.id, { deviceLimit: 5 });

      expect((await loginBy('v3', target, card.code, 'q-v3').expect(200)).body.code).toBe(0);
      expect((await loginBy('sdk', target, card.code, 'q-sdk').expect(200)).body.code).toBe(0);
      expect(
        (await connectLogin(t, target.program_id, { user_key: card.code, serial: 'q-connect' }).expect(200)).body.status,
      ).toBe(true);
      const before = await snapshot(card);

      for (const family of FAMILIES) {
        const res = await loginBy(family, target, card.code, 'q-v3');
        expectStandardFailure(res, 429, CODES.QUOTA_EXCEEDED);
        await expectOneLogRow(res, family, CODES.QUOTA_EXCEEDED, target.id, null);
      }
      const connectRes = await connectLogin(t, target.program_id, { user_key: card.code, serial: 'q-connect' });
      expect(connectRes.status).toBe(429);
      expect(connectRes.body).toMatchObject({ status: false, code: -CODES.QUOTA_EXCEEDED });
      await expectOneLogRow(connectRes, 'connect', CODES.QUOTA_EXCEEDED, target.id, null);
      expect(await snapshot(card)).toEqual(before);
      expect(before.useCount).toBe(3);
    });

    it('does not count a request refused for quota: raising the quota by one admits exactly one more login', async () => {
      const target = await author.createProject();
      await authorize(target, 'card_login', true, 1);
      const card = await insertCard(t, target.id);
      expect((await loginBy('v3', target, card.code, 'd').expect(200)).body.code).toBe(0);
      for (let i = 0; i < 3; i++)
        expectStandardFailure(await loginBy(FAMILIES[i % 2], target, card.code, 'd'), 429, CODES.QUOTA_EXCEEDED);
      await authorize(target, 'card_login', true, 2);
      expect((await loginBy('sdk', target, card.code, 'd').expect(200)).body.code).toBe(0);
      expectStandardFailure(await loginBy('v3', target, card.code, 'd'), 429, CODES.QUOTA_EXCEEDED);
      expect((await reload(card)).useCount).toBe(2);
    });

    it('admits exactly N of 2N concurrent mixed V3/SDK logins under a quota of N', async () => {
      const N = 5;
      const target = await author.createProject();
      await authorize(target, 'card_login', true, N);
      const cards = await Promise.all(Array.from({ length: 2 * N }, () => insertCard(t, target.id)));
      const results = await Promise.all(cards.map((card, i) => loginBy(FAMILIES[i % 2], target, card.code, `c-${i}`)));
      const admitted = results.filter((r) => r.status === 200 && r.body.code === 0);
      const refused = results.filter((r) => r.status === 429);
      expect(admitted).toHaveLength(N);
      expect(refused).toHaveLength(N);
      for (const res of refused) expectStandardFailure(res, 429, CODES.QUOTA_EXCEEDED);
      const rows = await cardRepos(t).logs.findBy({ projectId: target.id });
      expect(rows.filter((r) => r.resultCode === 0)).toHaveLength(N);
      expect(rows.filter((r) => r.resultCode === CODES.QUOTA_EXCEEDED)).toHaveLength(N);
      const used = (await Promise.all(cards.map(reload))).filter((c) => c.useCount > 0);
      expect(used).toHaveLength(N);
    });

    it('keeps quotas per project: another project with no quota is unaffected', async () => {
      const limited = await author.createProject();
      const free = await author.createProject();
      await authorize(limited, 'card_login', true, 0);
      expectStandardFailure(await loginBy('v3', limited, (await insertCard(t, limited.id)).code, 'd'), 429, CODES.QUOTA_EXCEEDED);
      expect((await loginBy('v3', free, (await insertCard(t, free.id)).code, 'd').expect(200)).body.code).toBe(0);
    });
  });
});
