import { createHash, randomBytes } from 'node:crypto';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { CODES, TIMESTAMP } from '../../support/standard';
import { startTestApp, TestApp, unique } from '../../support/test-app';
import { expectLegacyFailure, md5Signed } from '../../support/legacy';

describe('legacy family: aggregate entry /api/app and /api/legacy/v1/app (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
  });
  afterAll(() => t.close());

  const post = (path: string, fields: Record<string, string>) =>
    t.http().post(path).type('form').send(new URLSearchParams(fields).toString());
  const app = (fields: Record<string, string>, path = '/api/app') => post(path, fields);
  const upload = (projectId: string) => t.http().post(`/admin/v1/projects/${projectId}/files`).set(author.auth());
  const signedApp = (p: typeof project, fields: Record<string, string>, path = '/api/app') =>
    app(md5Signed({ app: p.program_id, ...fields }, p.legacy_secret), path);

  describe('card actions', () => {
    it.each(['/api/app', '/api/legacy/v1/app'])('logs a card in with the canonical card_login on %s', async (path) => {
      const card = await insertCard(t, project.id);
      const res = await signedApp(project, { api: 'card_login', kami: card.code, imei: 'agg-1' }, path).expect(200);
      expect(res.body).toStrictEqual({
        code: 1,
        msg: expect.any(String),
        data: {
          token: expect.any(String),
          id: card.id,
          code: card.code,
          machine_code: 'agg-1',
          expires_at: expect.stringMatching(TIMESTAMP),
          expires_at_iso: expect.any(String),
          device_limit: 1,
          features: [],
          trial: false,
        },
        request_id: res.headers['x-request-id'],
      });
    });

    it('logs a card in with the alias kmlogon', async () => {
      const card = await insertCard(t, project.id);
      const res = await signedApp(project, { api: 'kmlogon', kami: card.code, imei: 'agg-2' }).expect(200);
      expect(res.body).toMatchObject({ code: 1, data: { id: card.id } });
    });

    it('requires the MD5 signature for card_login: unsigned, tampered and stale are refused and change nothing', async () => {
      const card = await insertCard(t, project.id);
      const fields = { app: project.program_id, api: 'card_login', kami: card.code, imei: 'agg-3' };
      expectLegacyFailure(await app(fields), 401, CODES.SIGNATURE_INVALID);
      const good = md5Signed(fields, project.legacy_secret);
      expectLegacyFailure(await app({ ...good, imei: 'agg-other' }), 401, CODES.SIGNATURE_INVALID);
      expectLegacyFailure(await app({ ...good, api: 'kmlogon' }), 401, CODES.SIGNATURE_INVALID);
      expectLegacyFailure(
        await app(md5Signed(fields, project.legacy_secret, Math.floor(Date.now() / 1000) - 600)),
        401,
        CODES.TIMESTAMP_OUT_OF_WINDOW,
      );
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).status).toBe('unused');
    });

    it('unbinds with card_unbind and its aliases kmunmachine and unbind_machine, all signed', async () => {
      const card = await insertCard(t, project.id);
      for (const api of ['card_unbind', 'kmunmachine', 'unbind_machine']) {
        await signedApp(project, { api: 'card_login', kami: card.code, imei: `u-${api}` }).expect(200);
        expectLegacyFailure(
          await app({ app: project.program_id, api, kami: card.code, imei: `u-${api}` }),
          401,
          CODES.SIGNATURE_INVALID,
        );
        const res = await signedApp(project, { api, kami: card.code, imei: `u-${api}` }).expect(200);
        expect(res.body.code).toBe(1);
        expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
      }
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).unbindCount).toBe(3);
    });

    it('refuses missing card fields with BAD_REQUEST', async () => {
      expectLegacyFailure(await signedApp(project, { api: 'card_login', imei: 'x' }), 400, CODES.BAD_REQUEST);
    });
  });

  describe('actions and aliases', () => {
    it('refuses an unknown or missing action with BAD_REQUEST', async () => {
      expectLegacyFailure(await app({ app: project.program_id, api: 'no_such_action' }), 400, CODES.BAD_REQUEST);
      expectLegacyFailure(await app({ app: project.program_id, api: 'KMLOGON' }), 400, CODES.BAD_REQUEST);
      expectLegacyFailure(await app({ app: project.program_id }), 400, CODES.BAD_REQUEST);
    });

    it('applies the app rules before anything else', async () => {
      expectLegacyFailure(await app({ api: 'announcement' }), 400, CODES.APP_REQUIRED);
      expectLegacyFailure(await app({ app: project.id, api: 'announcement' }), 400, CODES.INTERNAL_KEY_NOT_ACCEPTED);
      expectLegacyFailure(await app({ app: '10000000', api: 'announcement' }), 404, CODES.PROGRAM_NOT_FOUND);
    });

    it('lets aliases and canonical names draw on ONE card_login quota', async () => {
      const p = await author.createProject();
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/card_login`, { authorized: true, daily_quota: 2 }).expect(200);
      const card = await insertCard(t, p.id);
      await post('/api/kmlogon', { app: p.program_id, kami: card.code, imei: 'q-1' }).expect(200);
      await signedApp(p, { api: 'card_login', kami: card.code, imei: 'q-1' }).expect(200);
      expectLegacyFailure(await signedApp(p, { api: 'kmlogon', kami: card.code, imei: 'q-1' }), 429, CODES.QUOTA_EXCEEDED);
      expectLegacyFailure(
        await post('/api/card_login', md5Signed({ app: p.program_id, kami: card.code, imei: 'q-1' }, p.legacy_secret)),
        429,
        CODES.QUOTA_EXCEEDED,
      );
    });

    it('lets notice and announcement draw on one announcement quota', async () => {
      const p = await author.createProject();
      await admin.put(`/admin/v1/projects/${p.id}/interfaces/announcement`, { authorized: true, daily_quota: 1 }).expect(200);
      const res = await app({ app: p.program_id, api: 'notice' }).expect(200);
      expect(res.body).toMatchObject({ code: 1, data: expect.any(Object), request_id: res.headers['x-request-id'] });
      expectLegacyFailure(await app({ app: p.program_id, api: 'announcement' }), 429, CODES.QUOTA_EXCEEDED);
    });

    it.each([
      ['announcement', 'notice'],
      ['app_config', 'ini'],
      ['app_profile', 'appinfo'],
    ])('answers the unsigned info action %s and its alias %s with code 1', async (canonical, alias) => {
      const a = await app({ app: project.program_id, api: canonical }).expect(200);
      const b = await app({ app: project.program_id, api: alias }).expect(200);
      expect(a.body.code).toBe(1);
      expect(b.body.code).toBe(1);
      expect(Object.keys(b.body.data).sort()).toEqual(Object.keys(a.body.data).sort());
    });

    it('registers and logs a program user in with user_register/userreg and user_login/userlogin, signed', async () => {
      const username = unique('u');
      const creds = { username, password: 'secret-pass-1', machine_id: 'pc-1' };
      expectLegacyFailure(await app({ app: project.program_id, api: 'user_register', ...creds }), 401, CODES.SIGNATURE_INVALID);
      const reg = await signedApp(project, { api: 'userreg', ...creds }).expect(200);
      expect(reg.body).toMatchObject({ code: 1, data: { user_id: expect.any(Number), username, status: 'active' } });
      expectLegacyFailure(await signedApp(project, { api: 'user_register', ...creds }), 200, 30001);
      const login = await signedApp(project, { api: 'user_login', ...creds }).expect(200);
      expect(login.body).toMatchObject({
        code: 1,
        data: { token: expect.any(String), profile: { username }, machine_id: 'pc-1' },
      });
      await signedApp(project, { api: 'userlogin', ...creds }).expect(200);
      expectLegacyFailure(await signedApp(project, { api: 'user_login', ...creds, password: 'wrong-pass-1' }), 200, 30002);
      expectLegacyFailure(await app({ app: project.program_id, api: 'userlogin', ...creds }), 401, CODES.SIGNATURE_INVALID);
    });

    it('issues a download address with get_file and getfile', async () => {
      const bytes = randomBytes(1000);
      const file = (await upload(project.id).attach('file', bytes, 'tool.bin').expect(201)).body;
      for (const api of ['get_file', 'getfile']) {
        const res = await app({ app: project.program_id, api, file_id: file.id }).expect(200);
        expect(res.body.data).toEqual({
          url: expect.stringMatching(new RegExp(`^/api/download/${file.id}\\?expires=\\d+&sig=[0-9a-f]{64}$`)),
          expires_at: expect.stringMatching(TIMESTAMP),
          expires_at_iso: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
          name: 'tool.bin',
          size: 1000,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        });
        const dl = await t.http().get(res.body.data.url).buffer(true).expect(200);
        expect(Number(dl.headers['content-length'])).toBe(1000);
      }
    });

    it('refuses get_file for a file of another program, a missing file_id, or without the permission', async () => {
      const other = await author.createProject();
      const file = (await upload(other.id).attach('file', randomBytes(10), 'x.bin').expect(201)).body;
      expectLegacyFailure(await app({ app: project.program_id, api: 'get_file', file_id: file.id }), 404, CODES.FILE_NOT_FOUND);
      expectLegacyFailure(await app({ app: project.program_id, api: 'get_file' }), 400, CODES.BAD_REQUEST);
      await admin.put(`/admin/v1/projects/${other.id}/interfaces/get_file`, { authorized: false }).expect(200);
      expectLegacyFailure(
        await app({ app: other.program_id, api: 'getfile', file_id: file.id }),
        403,
        CODES.INTERFACE_NOT_AUTHORIZED,
      );
    });
  });
});
