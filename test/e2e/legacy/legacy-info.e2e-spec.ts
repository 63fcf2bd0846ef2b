import type { Response } from 'supertest';
import { ClientCall } from '../../../src/access/client-call';
import { ClientProgramDirectory } from '../../../src/access/client-program';
import { LegacyInfoService } from '../../../src/legacy/info/legacy-info.service';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode, unusedProgramId, updateProgramSettings } from '../../support/connect';
import { startTestApp, TestApp, unique } from '../../support/test-app';
import { ErrorCode } from '../../../sdk/src';
import { expectLegacyFailure } from '../../support/legacy';

/** Catalog codes (decisions §2). */
const {
  BAD_REQUEST,
  APP_REQUIRED,
  INTERNAL_KEY_NOT_ACCEPTED,
  UNSUPPORTED_MEDIA_TYPE,
  PROGRAM_NOT_FOUND,
  PROGRAM_DISABLED,
  INTERFACE_NOT_AUTHORIZED,
  QUOTA_EXCEEDED,
} = ErrorCode;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;
type Method = 'GET' | 'POST';

/** The legacy success envelope `{code: 1, msg, data, request_id}`; returns data. */
function legacyData(res: Response): Record<string, unknown> {
  expect({ http: res.status, code: res.body.code }).toEqual({ http: 200, code: 1 });
  expect(res.body).toEqual({
    code: 1,
    msg: expect.any(String),
    data: expect.any(Object),
    request_id: res.headers['x-request-id'],
  });
  return res.body.data;
}

describe('legacy info: announcement, latest version, app_config, app_profile (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let other: AdminClient;
  let service: LegacyInfoService;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    other = (await admin.createAuthor()).client;
    service = t.app.get(LegacyInfoService);
  });
  afterAll(() => t.close());

  /** A legacy read: GET with the query string, POST with form fields. */
  function call(method: Method, path: string, fields: Record<string, string>) {
    return method === 'GET' ? t.http().get(path).query(fields) : t.http().post(path).type('form').send(fields);
  }
  /** The call a legacy route's guard would establish for this project. */
  const programOf = async (p: Project): Promise<ClientCall> => ({
    program: await t.app.get(ClientProgramDirectory).byProgramId(p.program_id),
    family: 'legacy',
    ip: '127.0.0.1',
    requestId: unique('req'),
  });
  const announce = (p: Project, body: object, client = author) =>
    client.post(`/admin/v1/projects/${p.id}/announcements`, { title: 'T', content: 'C', ...body }).expect(201);
  const authorize = (p: Project, name: string, authorized: boolean, daily_quota: number | null = null) =>
    admin.put(`/admin/v1/projects/${p.id}/interfaces/${name}`, { authorized, daily_quota }).expect(200);

  describe.each<Method>(['GET', 'POST'])('%s /api/announcement', (method) => {
    const path = '/api/announcement';

    it("answers this program's newest enabled announcement, never another program's or a platform announcement", async () => {
      const p = await author.createProject();
      const elsewhere = await other.createProject();
      expect(legacyData(await call(method, path, { app: p.program_id }))).toEqual({ announcement: '' });

      await admin
        .post('/admin/v1/platform/announcements', { title: 'Operators', content: `platform-only ${method}` })
        .expect(201);
      await announce(elsewhere, { content: 'another program' }, other);
      expect(legacyData(await call(method, path, { app: p.program_id }))).toEqual({ announcement: '' });

      await announce(p, { content: 'older' });
      const newest = (await announce(p, { content: 'newest' })).body;
      await announce(p, { content: 'draft', enabled: false });
      expect(legacyData(await call(method, path, { app: p.program_id }))).toEqual({ announcement: 'newest' });

      await author.patch(`/admin/v1/projects/${p.id}/announcements/${newest.id}`, { enabled: false }).expect(200);
      expect(legacyData(await call(method, path, { app: p.program_id }))).toEqual({ announcement: 'older' });
      expect(legacyData(await call(method, path, { app: elsewhere.program_id }))).toEqual({ announcement: 'another program' });
    });

    it('answers 10206 when announcement is not authorized for the program', async () => {
      const p = await author.createProject();
      await announce(p, { content: 'hidden' });
      await authorize(p, 'announcement', false);
      expectLegacyFailure(await call(method, path, { app: p.program_id }), 403, INTERFACE_NOT_AUTHORIZED);
      await authorize(p, 'announcement', true);
      expect(legacyData(await call(method, path, { app: p.program_id }))).toEqual({ announcement: 'hidden' });
    });

    it('applies the app rules: missing → APP_REQUIRED, internal key → INTERNAL_KEY_NOT_ACCEPTED, unknown → PROGRAM_NOT_FOUND', async () => {
      const p = await author.createProject();
      expectLegacyFailure(await call(method, path, {}), 400, APP_REQUIRED);
      expectLegacyFailure(await call(method, path, { app: '  ' }), 400, APP_REQUIRED);
      expectLegacyFailure(await call(method, path, { app: p.id }), 400, INTERNAL_KEY_NOT_ACCEPTED);
      expectLegacyFailure(await call(method, path, { app: p.id.toUpperCase() }), 400, INTERNAL_KEY_NOT_ACCEPTED);
      expectLegacyFailure(await call(method, path, { app: await unusedProgramId(t) }), 404, PROGRAM_NOT_FOUND);
      expectLegacyFailure(await call(method, path, { app: 'not-a-program' }), 404, PROGRAM_NOT_FOUND);
    });

    it('refuses a disabled program', async () => {
      const p = await author.createProject();
      await updateProgramSettings(t, p.id, { status: 'disabled' });
      expectLegacyFailure(await call(method, path, { app: p.program_id }), 403, PROGRAM_DISABLED);
    });
  });

  it('counts GET and POST /api/announcement in one announcement quota', async () => {
    const p = await author.createProject();
    await authorize(p, 'announcement', true, 2);
    legacyData(await call('GET', '/api/announcement', { app: p.program_id }));
    legacyData(await call('POST', '/api/announcement', { app: p.program_id }));
    expectLegacyFailure(await call('GET', '/api/announcement', { app: p.program_id }), 429, QUOTA_EXCEEDED);
    expectLegacyFailure(await call('POST', '/api/announcement', { app: p.program_id }), 429, QUOTA_EXCEEDED);
  });

  it('reads POST fields from a form body only (JSON is 415)', async () => {
    const p = await author.createProject();
    const res = await t.http().post('/api/announcement').send({ app: p.program_id });
    expectLegacyFailure(res, 415, UNSUPPORTED_MEDIA_TYPE);
  });

  it('answers a wrong method with JSON 405', async () => {
    for (const path of ['/api/announcement', '/api/latest_version']) {
      const res = await t.http().put(path).type('form').send('app=12345678');
      expectLegacyFailure(res, 405, 10002);
      expect(res.headers.allow).toBe('GET, HEAD, POST');
    }
  });

  describe.each<Method>(['GET', 'POST'])('%s /api/latest_version', (method) => {
    const path = '/api/latest_version';

    it('orders versions numerically (1.10.0 > 1.2.0) and answers the version check fields', async () => {
      const p = await author.createProject();
      const versions = `/admin/v1/projects/${p.id}/versions`;
      expect(legacyData(await call(method, path, { app: p.program_id, version: '1.0.0' }))).toEqual({
        latest_version: null,
        update_available: false,
        force_update: false,
        changelog: null,
        download_url: null,
      });
      await author.post(versions, { version: '1.2.0', changelog: 'two', force_update: true }).expect(201);
      await author
        .post(versions, { version: '1.10.0', changelog: 'ten', download_url: 'https://example.com/app-1.10.0.zip' })
        .expect(201);
      await author.post(versions, { version: '2.0.0', enabled: false }).expect(201);
      expect(legacyData(await call(method, path, { app: p.program_id, version: '1.9.9' }))).toEqual({
        latest_version: '1.10.0',
        update_available: true,
        force_update: false,
        changelog: 'ten',
        download_url: 'https://example.com/app-1.10.0.zip',
      });
      expect(legacyData(await call(method, path, { app: p.program_id, version: '1.1' }))).toMatchObject({
        latest_version: '1.10.0',
        update_available: true,
        force_update: true,
      });
      expect(legacyData(await call(method, path, { app: p.program_id, version: '1.10' }))).toMatchObject({
        latest_version: '1.10.0',
        update_available: false,
        force_update: false,
      });
    });

    it('answers BAD_REQUEST for a missing or malformed version, before counting quota', async () => {
      const p = await author.createProject();
      await authorize(p, 'version_check', true, 1);
      for (const version of [undefined, '', 'v1', '1.2-beta', '1..2', '1.2.3.4.5']) {
        const fields: Record<string, string> = { app: p.program_id, ...(version !== undefined ? { version } : {}) };
        expectLegacyFailure(await call(method, path, fields), 400, BAD_REQUEST);
      }
      legacyData(await call(method, path, { app: p.program_id, version: '1.0' }));
      expectLegacyFailure(await call(method, path, { app: p.program_id, version: '1.0' }), 429, QUOTA_EXCEEDED);
    });

    it('applies the app rules and the version_check authorization', async () => {
      const p = await author.createProject();
      expectLegacyFailure(await call(method, path, { version: '1.0' }), 400, APP_REQUIRED);
      expectLegacyFailure(await call(method, path, { app: p.id, version: '1.0' }), 400, INTERNAL_KEY_NOT_ACCEPTED);
      expectLegacyFailure(await call(method, path, { app: await unusedProgramId(t), version: '1.0' }), 404, PROGRAM_NOT_FOUND);
      await authorize(p, 'version_check', false);
      expectLegacyFailure(await call(method, path, { app: p.program_id, version: '1.0' }), 403, INTERFACE_NOT_AUTHORIZED);
    });
  });

  describe('appConfig', () => {
    /** A project with one public and one login-only variable, open for Connect logins. */
    async function projectWithVariables(client = author): Promise<Project> {
      const p = await client.createProject();
      await openConnectInEveryMode(t, p.id);
      await client.post(`/admin/v1/projects/${p.id}/variables`, { name: 'motd', value: 'hello', public: true }).expect(201);
      await client.post(`/admin/v1/projects/${p.id}/variables`, { name: 'download.key', value: 's3cr3t' }).expect(201);
      return p;
    }
    /** A compatible login token: the Connect success `data.token` of a card login. */
    async function loginToken(p: Project, code?: string): Promise<{ token: string; cardId: number }> {
      const card = code ? { code, id: 0 } : await insertCard(t, p.id);
      const res = await connectLogin(t, p.program_id, { user_key: card.code, serial: 'device-1' }).expect(200);
      expect(res.body.status).toBe(true);
      return { token: res.body.data.token, cardId: card.id };
    }
    const config = async (p: Project, token?: string) =>
      (await service.appConfig(await programOf(p), token)).data as {
        variables: Record<string, string>;
        login_variables: boolean;
      };

    it('answers only public variables without a token', async () => {
      const p = await projectWithVariables();
      expect(await config(p)).toEqual({ variables: { motd: 'hello' }, login_variables: false });
      expect(await config(p, '')).toEqual({ variables: { motd: 'hello' }, login_variables: false });
    });

    it('adds the login-only variables with a valid login token of this program', async () => {
      const p = await projectWithVariables();
      const { token } = await loginToken(p);
      expect(await config(p, token)).toEqual({ variables: { motd: 'hello', 'download.key': 's3cr3t' }, login_variables: true });
      await author.post(`/admin/v1/projects/${p.id}/variables`, { name: 'later', value: 'new' }).expect(201);
      expect((await config(p, token)).variables).toEqual({ motd: 'hello', 'download.key': 's3cr3t', later: 'new' });
    });

    it('answers only public variables with a token of another program', async () => {
      const p = await projectWithVariables();
      const elsewhere = await projectWithVariables(other);
      const { token } = await loginToken(elsewhere);
      expect(await config(elsewhere, token)).toMatchObject({ login_variables: true });
      expect(await config(p, token)).toEqual({ variables: { motd: 'hello' }, login_variables: false });
    });

    it('answers only public variables with the token of a card banned since', async () => {
      const p = await projectWithVariables();
      const { token, cardId } = await loginToken(p);
      expect((await config(p, token)).login_variables).toBe(true);
      await author.patch(`/admin/v1/projects/${p.id}/cards/${cardId}`, { status: 'banned' }).expect(200);
      expect(await config(p, token)).toEqual({ variables: { motd: 'hello' }, login_variables: false });
    });

    it('answers only public variables for an unknown, overlong or non-string token', async () => {
      const p = await projectWithVariables();
      const { token } = await loginToken(p);
      for (const bad of ['not-a-token', token + 'x', token.slice(1), 'x'.repeat(10_000), 42 as unknown as string]) {
        expect(await config(p, bad)).toEqual({ variables: { motd: 'hello' }, login_variables: false });
      }
    });

    it('keeps a variable named like an Object property an ordinary key', async () => {
      const p = await author.createProject();
      await author.post(`/admin/v1/projects/${p.id}/variables`, { name: '__proto__', value: 'x', public: true }).expect(201);
      expect(JSON.parse(JSON.stringify(await config(p)))).toEqual(
        JSON.parse('{"variables":{"__proto__":"x"},"login_variables":false}'),
      );
    });

    it('passes the app_config gate', async () => {
      const p = await projectWithVariables();
      await authorize(p, 'app_config', false);
      await expect(service.appConfig(await programOf(p))).rejects.toMatchObject({ code: INTERFACE_NOT_AUTHORIZED });
    });
  });

  describe('appProfile', () => {
    it('answers program_id, name, latest version, announcement, heartbeat interval and server time', async () => {
      const p = await author.createProject({ name: 'Profile Program', heartbeat_interval_seconds: 45 });
      const before = Math.floor(Date.now() / 1000);
      expect((await service.appProfile(await programOf(p))).data).toEqual({
        program_id: p.program_id,
        name: 'Profile Program',
        latest_version: null,
        announcement: '',
        heartbeat_interval_seconds: 45,
        server_time: expect.any(Number),
      });
      await author.post(`/admin/v1/projects/${p.id}/versions`, { version: '1.2.0' }).expect(201);
      await author.post(`/admin/v1/projects/${p.id}/versions`, { version: '1.10.0' }).expect(201);
      await announce(p, { content: 'Welcome' });
      await author.patch(`/admin/v1/projects/${p.id}`, { name: 'Renamed' }).expect(200);
      const data = (await service.appProfile(await programOf(p))).data as Record<string, unknown>;
      expect(data).toMatchObject({
        program_id: p.program_id,
        name: 'Renamed',
        latest_version: '1.10.0',
        announcement: 'Welcome',
        heartbeat_interval_seconds: 45,
      });
      expect(data.server_time).toBeGreaterThanOrEqual(before);
      expect(data.server_time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    });

    it('leaves out the announcement and latest version where those interfaces are not authorized', async () => {
      const p = await author.createProject();
      await author.post(`/admin/v1/projects/${p.id}/versions`, { version: '3.0' }).expect(201);
      await announce(p, { content: 'Secret news' });
      await authorize(p, 'announcement', false);
      await authorize(p, 'version_check', false);
      expect((await service.appProfile(await programOf(p))).data).toMatchObject({ latest_version: null, announcement: '' });
    });

    it('passes the app_profile gate', async () => {
      const p = await author.createProject();
      await authorize(p, 'app_profile', false);
      await expect(service.appProfile(await programOf(p))).rejects.toMatchObject({ code: INTERFACE_NOT_AUTHORIZED });
    });
  });
});
