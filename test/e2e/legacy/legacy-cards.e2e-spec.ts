import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { cardHeartbeat, CODES, parseUtcWallClock, sdkLogin, TIMESTAMP, wallClock } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';
import { AppConfig } from '../../../src/config/app-config';
import { ErrorCode } from '../../../sdk/src';
import { expectLegacyFailure, md5Signed } from '../../support/legacy';

const { UNBIND_REFUSED } = ErrorCode;

describe('legacy family: card routes, MD5 signature, unbind, state checks (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let timeZone: string;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;

  beforeAll(async () => {
    t = await startTestApp();
    timeZone = t.app.get(AppConfig).APP_TIMEZONE;
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
  });
  afterAll(() => t.close());

  const post = (path: string, fields: Record<string, string>) =>
    t.http().post(path).type('form').send(new URLSearchParams(fields).toString());
  const login = (p: typeof project, kami: string, imei: string) =>
    post('/api/kmlogon', { app: p.program_id, kami, imei }).expect(200);

  describe('login', () => {
    it('logs a card in over /api/kmlogon with code 1 and the legacy data', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 2 });
      const res = await post('/api/kmlogon', { app: project.program_id, kami: card.code, imei: 'dev-1' }).expect(200);
      expect(res.body).toStrictEqual({
        code: 1,
        msg: expect.any(String),
        data: {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          id: card.id,
          code: card.code,
          machine_code: 'dev-1',
          expires_at: expect.stringMatching(TIMESTAMP),
          expires_at_iso: expect.any(String),
          features: [],
          trial: false,
          device_limit: 2,
        },
        request_id: res.headers['x-request-id'],
      });
      const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
      expect(res.body.data.expires_at).toBe(wallClock(stored.expiresAt!, timeZone));
      const logs = await cardRepos(t).logs.findBy({ requestId: res.headers['x-request-id'] });
      expect(logs.map((l) => [l.family, l.interface, l.resultCode])).toEqual([['legacy', 'card_login', 0]]);
    });

    it('shows a permanent card as 9999-12-31 23:59:59', async () => {
      const card = await insertCard(t, project.id, { durationSeconds: 0 });
      const res = await login(project, card.code, 'dev-p');
      expect(res.body.data.expires_at).toBe('9999-12-31 23:59:59');
    });

    it('applies the app rules: missing, internal key, unknown program', async () => {
      expectLegacyFailure(await post('/api/kmlogon', { kami: 'x', imei: 'y' }), 400, CODES.APP_REQUIRED);
      expectLegacyFailure(
        await post('/api/kmlogon', { app: project.id, kami: 'x', imei: 'y' }),
        400,
        CODES.INTERNAL_KEY_NOT_ACCEPTED,
      );
      expectLegacyFailure(
        await post('/api/card_login', { app: project.id, kami: 'x', imei: 'y' }),
        400,
        CODES.INTERNAL_KEY_NOT_ACCEPTED,
      );
      expectLegacyFailure(await post('/api/kmlogon', { app: '10000000', kami: 'x', imei: 'y' }), 404, CODES.PROGRAM_NOT_FOUND);
      expectLegacyFailure(await post('/api/kmlogon', { app: 'abc', kami: 'x', imei: 'y' }), 404, CODES.PROGRAM_NOT_FOUND);
    });

    it('refuses a missing kami with BAD_REQUEST and a JSON body with UNSUPPORTED_MEDIA_TYPE', async () => {
      expectLegacyFailure(await post('/api/kmlogon', { app: project.program_id, imei: 'y' }), 400, CODES.BAD_REQUEST);
      const json = await t.http().post('/api/kmlogon').send({ app: project.program_id, kami: 'x', imei: 'y' });
      expectLegacyFailure(json, 415, CODES.UNSUPPORTED_MEDIA_TYPE);
    });

    it('checks the card_login permission on /api/kmlogon', async () => {
      const p = await author.createProject();
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/card_login`, { authorized: false }).expect(200);
      const card = await insertCard(t, p.id);
      expectLegacyFailure(
        await post('/api/kmlogon', { app: p.program_id, kami: card.code, imei: 'd' }),
        403,
        CODES.INTERFACE_NOT_AUTHORIZED,
      );
    });
  });

  describe('MD5 signature on /api/card_login', () => {
    it('logs in with a signature computed independently', async () => {
      const card = await insertCard(t, project.id);
      const res = await post(
        '/api/card_login',
        md5Signed({ app: project.program_id, kami: card.code, imei: 'md5-dev' }, project.legacy_secret),
      ).expect(200);
      expect(res.body).toMatchObject({ code: 1, data: { id: card.id, machine_code: 'md5-dev', token: expect.any(String) } });
    });

    it('refuses a missing sign with SIGNATURE_INVALID and changes nothing', async () => {
      const card = await insertCard(t, project.id);
      const fields = md5Signed({ app: project.program_id, kami: card.code, imei: 'd' }, project.legacy_secret);
      delete fields.sign;
      expectLegacyFailure(await post('/api/card_login', fields), 401, CODES.SIGNATURE_INVALID);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).status).toBe('unused');
    });

    it('refuses a tampered field with SIGNATURE_INVALID and changes nothing', async () => {
      const card = await insertCard(t, project.id);
      const fields = md5Signed({ app: project.program_id, kami: card.code, imei: 'd' }, project.legacy_secret);
      expectLegacyFailure(await post('/api/card_login', { ...fields, imei: 'other' }), 401, CODES.SIGNATURE_INVALID);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).status).toBe('unused');
    });

    it('refuses a signature made with another key (e.g. the api_secret)', async () => {
      const card = await insertCard(t, project.id);
      const fields = md5Signed({ app: project.program_id, kami: card.code, imei: 'd' }, project.api_secret);
      expectLegacyFailure(await post('/api/card_login', fields), 401, CODES.SIGNATURE_INVALID);
    });

    it('refuses a stale t with TIMESTAMP_OUT_OF_WINDOW and changes nothing', async () => {
      const card = await insertCard(t, project.id);
      const stale = md5Signed(
        { app: project.program_id, kami: card.code, imei: 'd' },
        project.legacy_secret,
        Math.floor(Date.now() / 1000) - 301,
      );
      expectLegacyFailure(await post('/api/card_login', stale), 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
      const future = md5Signed(
        { app: project.program_id, kami: card.code, imei: 'd' },
        project.legacy_secret,
        Math.floor(Date.now() / 1000) + 400,
      );
      expectLegacyFailure(await post('/api/card_login', future), 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).status).toBe('unused');
    });

    it('accepts an upper-case sign and ignores empty fields in the signature', async () => {
      const card = await insertCard(t, project.id);
      const fields = md5Signed({ app: project.program_id, kami: card.code, imei: 'd-up', note: '' }, project.legacy_secret);
      await post('/api/card_login', { ...fields, sign: fields.sign.toUpperCase() }).expect(200);
    });
  });

  describe('unbind', () => {
    const unbind = (p: typeof project, kami: string, imei: string) => post('/api/kmunmachine', { app: p.program_id, kami, imei });

    it('unbinds a device over /api/kmunmachine with code 1 and counts it', async () => {
      const card = await insertCard(t, project.id);
      await login(project, card.code, 'ub-1');
      const res = await unbind(project, card.code, 'ub-1').expect(200);
      expect(res.body).toMatchObject({
        code: 1,
        data: { id: card.id, machine_code: 'ub-1', unbind_count: 1 },
        request_id: res.headers['x-request-id'],
      });
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).unbindCount).toBe(1);
      await login(project, card.code, 'ub-2'); // the freed slot takes another device
    });

    it('unbinds over /api/unbind_machine with the MD5 signature, and refuses it unsigned', async () => {
      const card = await insertCard(t, project.id);
      await login(project, card.code, 'ubm-1');
      expectLegacyFailure(
        await post('/api/unbind_machine', { app: project.program_id, kami: card.code, imei: 'ubm-1' }),
        401,
        CODES.SIGNATURE_INVALID,
      );
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(1);
      const res = await post(
        '/api/unbind_machine',
        md5Signed({ app: project.program_id, kami: card.code, imei: 'ubm-1' }, project.legacy_secret),
      ).expect(200);
      expect(res.body.code).toBe(1);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
    });

    it('revokes the SDK card session of the unbound device only', async () => {
      const p = await author.createProject({ device_limit: 2 });
      const card = await insertCard(t, p.id, { deviceLimit: 2 });
      const a = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: card.code, machine_id: 'sdk-a' }).expect(200);
      const b = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: card.code, machine_id: 'sdk-b' }).expect(200);
      await cardHeartbeat(t, a.body.data.session_token, 'sdk-a').expect(200);
      await unbind(p, card.code, 'sdk-a').expect(200);
      const hb = await cardHeartbeat(t, a.body.data.session_token, 'sdk-a').expect(401);
      expect(hb.body.code).toBe(CODES.SESSION_INVALID);
      await cardHeartbeat(t, b.body.data.session_token, 'sdk-b').expect(200);
    });

    it('refuses with UNBIND_REFUSED (HTTP 200) when the project switched unbinding off', async () => {
      const p = await author.createProject({ unbind_enabled: false });
      const card = await insertCard(t, p.id);
      await login(p, card.code, 'off-1');
      const res = await unbind(p, card.code, 'off-1');
      expectLegacyFailure(res, 200, UNBIND_REFUSED);
      expect(res.body.data).toEqual({ reason: 'disabled', retry_at: null, retry_at_iso: null });
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(1);
    });

    it('takes unbind_deduct_seconds off expires_at, visible in the answer and a later login', async () => {
      const p = await author.createProject({ unbind_deduct_seconds: 3600 });
      const card = await insertCard(t, p.id, { durationSeconds: 86400 });
      const first = await login(p, card.code, 'dd-1');
      const res = await unbind(p, card.code, 'dd-1').expect(200);
      expect(parseUtcWallClock(first.body.data.expires_at) - parseUtcWallClock(res.body.data.expires_at)).toEqual(
        timeZone === 'UTC' ? 3600_000 : expect.any(Number),
      );
      const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
      expect(res.body.data.expires_at).toBe(wallClock(stored.expiresAt!, timeZone));
      const again = await login(p, card.code, 'dd-2');
      expect(again.body.data.expires_at).toBe(res.body.data.expires_at);
    });

    it('refuses with UNBIND_REFUSED once unbind_max is reached', async () => {
      const p = await author.createProject({ unbind_max: 1 });
      const card = await insertCard(t, p.id);
      await login(p, card.code, 'max-1');
      await unbind(p, card.code, 'max-1').expect(200);
      await login(p, card.code, 'max-2');
      const res = await unbind(p, card.code, 'max-2');
      expectLegacyFailure(res, 200, UNBIND_REFUSED);
      expect(res.body.data).toEqual({ reason: 'limit', retry_at: null, retry_at_iso: null });
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(1);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).unbindCount).toBe(1);
    });

    it('refuses with UNBIND_REFUSED for a device that is not bound, and CARD_INVALID for an unknown card', async () => {
      const card = await insertCard(t, project.id);
      await login(project, card.code, 'nb-1');
      const res = await unbind(project, card.code, 'nb-other');
      expectLegacyFailure(res, 200, UNBIND_REFUSED);
      expect(res.body.data).toEqual({ reason: 'not_bound', retry_at: null, retry_at_iso: null });
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).unbindCount).toBe(0);
      expectLegacyFailure(await unbind(project, 'NO-SUCH-CARD', 'nb-1'), 200, CODES.CARD_INVALID);
    });

    it('checks the card_unbind permission first', async () => {
      const p = await author.createProject();
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/card_unbind`, { authorized: false }).expect(200);
      const card = await insertCard(t, p.id);
      await login(p, card.code, 'perm-1');
      expectLegacyFailure(await unbind(p, card.code, 'perm-1'), 403, CODES.INTERFACE_NOT_AUTHORIZED);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(1);
    });
  });

  describe('state checks', () => {
    const check = (p: typeof project, kami: string, imei: string) => post('/api/check', { app: p.program_id, kami, imei });

    it('/api/check answers code 1 with the state in data for a valid card checked from its bound device', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 3 });
      const loggedIn = await login(project, card.code, 'chk-1');
      const res = await check(project, card.code, 'chk-1').expect(200);
      expect(res.body).toStrictEqual({
        code: 1,
        msg: expect.any(String),
        data: {
          status: 'active',
          activated: true,
          expired: false,
          expires_at: loggedIn.body.data.expires_at,
          expires_at_iso: loggedIn.body.data.expires_at_iso,
          device_bound: true,
          devices: 1,
          device_limit: 3,
          trial: false,
        },
        request_id: res.headers['x-request-id'],
      });
      const permanent = await insertCard(t, project.id, { durationSeconds: 0 });
      await login(project, permanent.code, 'chk-p');
      const p = await check(project, permanent.code, 'chk-p').expect(200);
      expect(p.body).toMatchObject({
        code: 1,
        data: { status: 'active', expired: false, expires_at: '9999-12-31 23:59:59', device_bound: true },
      });
    });

    it('/api/check refuses an unused card with DEVICE_NOT_BOUND (HTTP 200) and activates or binds nothing', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 3 });
      expectLegacyFailure(await check(project, card.code, 'chk-u'), 200, CODES.DEVICE_NOT_BOUND);
      const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
      expect([stored.status, stored.activatedAt, stored.expiresAt, stored.useCount]).toEqual(['unused', null, null, 0]);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
    });

    it('/api/check refuses a valid card checked from a device not bound to it with DEVICE_NOT_BOUND, binding nothing', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 3 });
      await login(project, card.code, 'chk-a');
      expectLegacyFailure(await check(project, card.code, 'chk-b'), 200, CODES.DEVICE_NOT_BOUND);
      expect((await cardRepos(t).devices.findBy({ cardId: card.id })).map((d) => d.machineCode)).toEqual(['chk-a']);
      expect((await check(project, card.code, 'chk-a').expect(200)).body.code).toBe(1);
    });

    it('/api/check refuses an expired card with CARD_EXPIRED, also from its bound device', async () => {
      const never = await insertCard(t, project.id, {
        status: 'active',
        activatedAt: new Date(Date.now() - 7200_000),
        expiresAt: new Date(Date.now() - 3600_000),
      });
      expectLegacyFailure(await check(project, never.code, 'x'), 200, CODES.CARD_EXPIRED);

      const card = await insertCard(t, project.id);
      await login(project, card.code, 'chk-exp');
      expect((await check(project, card.code, 'chk-exp').expect(200)).body.code).toBe(1);
      await cardRepos(t).cards.update({ id: card.id }, { expiresAt: new Date(Date.now() - 1000) });
      expectLegacyFailure(await check(project, card.code, 'chk-exp'), 200, CODES.CARD_EXPIRED);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(1);
    });

    it('/api/check refuses a banned card with CARD_BANNED, also from its bound device', async () => {
      const unused = await insertCard(t, project.id, { status: 'banned' });
      expectLegacyFailure(await check(project, unused.code, 'x'), 200, CODES.CARD_BANNED);

      const card = await insertCard(t, project.id);
      await login(project, card.code, 'chk-ban');
      await cardRepos(t).cards.update({ id: card.id }, { status: 'banned' });
      expectLegacyFailure(await check(project, card.code, 'chk-ban'), 200, CODES.CARD_BANNED);
    });

    it('/api/check refuses an unknown card with CARD_INVALID', async () => {
      expectLegacyFailure(await check(project, 'NO-SUCH', 'x'), 200, CODES.CARD_INVALID);
    });

    it('/api/check refusals still pass the state_check gate and count against its daily quota', async () => {
      const p = await author.createProject();
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/state_check`, { authorized: true, daily_quota: 1 }).expect(200);
      const card = await insertCard(t, p.id);
      expectLegacyFailure(await check(p, card.code, 'q-1'), 200, CODES.DEVICE_NOT_BOUND);
      expectLegacyFailure(await check(p, card.code, 'q-1'), 429, CODES.QUOTA_EXCEEDED);
    });

    it('/api/paycheck answers over GET (query string) and POST', async () => {
      const card = await insertCard(t, project.id);
      const unused = await t.http().get('/api/paycheck').query({ app: project.program_id, kami: card.code }).expect(200);
      expect(unused.body).toStrictEqual({
        code: 1,
        msg: expect.any(String),
        data: { activated: false, valid: false, expires_at: null, expires_at_iso: null },
        request_id: unused.headers['x-request-id'],
      });
      const loggedIn = await login(project, card.code, 'pay-1');
      const res = await post('/api/paycheck', { app: project.program_id, kami: card.code }).expect(200);
      expect(res.body.data).toEqual({
        activated: true,
        valid: true,
        expires_at: loggedIn.body.data.expires_at,
        expires_at_iso: loggedIn.body.data.expires_at_iso,
      });
      const banned = await insertCard(t, project.id, {
        status: 'banned',
        activatedAt: new Date(),
        expiresAt: new Date(Date.now() + 3600_000),
      });
      const b = await post('/api/paycheck', { app: project.program_id, kami: banned.code }).expect(200);
      expect(b.body.data).toMatchObject({ activated: true, valid: false });
    });

    it('/api/paycheck applies the app rules on GET and refuses an unknown card', async () => {
      expectLegacyFailure(await t.http().get('/api/paycheck').query({ kami: 'x' }), 400, CODES.APP_REQUIRED);
      expectLegacyFailure(
        await t.http().get('/api/paycheck').query({ app: project.id, kami: 'x' }),
        400,
        CODES.INTERNAL_KEY_NOT_ACCEPTED,
      );
      expectLegacyFailure(await post('/api/paycheck', { app: project.program_id, kami: 'NO-SUCH' }), 200, CODES.CARD_INVALID);
    });

    it('checks the state_check and paycheck permissions', async () => {
      const p = await author.createProject();
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/state_check`, { authorized: false }).expect(200);
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/paycheck`, { authorized: false }).expect(200);
      const card = await insertCard(t, p.id);
      expectLegacyFailure(
        await post('/api/check', { app: p.program_id, kami: card.code, imei: 'x' }),
        403,
        CODES.INTERFACE_NOT_AUTHORIZED,
      );
      expectLegacyFailure(
        await post('/api/paycheck', { app: p.program_id, kami: card.code }),
        403,
        CODES.INTERFACE_NOT_AUTHORIZED,
      );
    });
  });

  it.each([
    ['get', '/api/kmlogon'],
    ['get', '/api/card_login'],
    ['get', '/api/kmunmachine'],
    ['get', '/api/unbind_machine'],
    ['get', '/api/check'],
    ['put', '/api/paycheck'],
    ['delete', '/api/paycheck'],
    ['get', '/api/app'],
    ['get', '/api/legacy/v1/app'],
  ] as const)('answers %s %s with JSON 405 in the legacy envelope', async (method, path) => {
    const res = await t.http()[method](path).expect(405);
    expectLegacyFailure(res, 405, CODES.METHOD_NOT_ALLOWED);
    expect(res.headers.allow).toMatch(/POST/);
  });
});
