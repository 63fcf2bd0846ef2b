import { createHash, createHmac } from 'node:crypto';
import type { Response } from 'supertest';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, PROJECT_NOT_FOUND, UNAUTHENTICATED } from '../../support/admin-errors';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, connectRepos, expectOneLogRow, openConnectInEveryMode, TIMESTAMP } from '../../support/connect';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;
type Body = Record<string, unknown>;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmacSha256 = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');

const DEFAULT_VIEW = {
  customized: false,
  field_names: {},
  token_algorithm: null,
  token_template: null,
  has_secret: false,
  updated_at: null,
};
const ALLOWED_FIELDS = [
  'status',
  'code',
  'reason',
  'data',
  'request_id',
  'token',
  'expires_at',
  'device_limit',
  'server_time',
  'machine_code',
  'announcement',
];
const ALLOWED_PLACEHOLDERS = [
  '{user_key}',
  '{serial}',
  '{program_id}',
  '{timestamp}',
  '{expires_at}',
  '{nonce}',
  '{device_limit}',
  '{secret}',
];
const PERMANENT = '9999-12-31 23:59:59';

/** Every field renamed, to names that are none of the defaults. */
const FULL_RENAME = {
  status: 'ok',
  code: 'result_code',
  reason: 'message',
  data: 'payload',
  request_id: 'trace',
  token: 'licence_token',
  expires_at: 'valid_until',
  device_limit: 'max_devices',
  server_time: 'now',
  machine_code: 'hwid',
  announcement: 'notice',
};

describe('Connect response customization (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let stranger: AdminClient;

  const path = (project: Project) => `/admin/v1/projects/${project.id}/connect/customization`;
  const put = (project: Project, body: object, as = author) => as.put(path(project), body);
  const view = async (project: Project, as = author) => (await as.get(path(project)).expect(200)).body;
  const login = (project: Project, body: Record<string, string>, spelling: 'connect' | 'conncet' = 'connect') =>
    connectLogin(t, project.program_id, body, spelling);

  async function program(): Promise<Project> {
    const project = await author.createProject();
    await openConnectInEveryMode(t, project.id);
    return project;
  }

  /** Asserts a 400 whose details list the allowed names, and that the stored customization did not change. */
  async function expectRefusedPut(project: Project, body: object, listed: 'allowed_fields' | 'allowed_placeholders' | null) {
    const before = await view(project);
    const res = await put(project, body);
    expectAdminError(res, 400, BAD_REQUEST);
    if (listed === 'allowed_fields') expect(res.body.error.details.allowed_fields).toEqual(ALLOWED_FIELDS);
    if (listed === 'allowed_placeholders') expect(res.body.error.details.allowed_placeholders).toEqual(ALLOWED_PLACEHOLDERS);
    expect(await view(project)).toEqual(before);
    return res;
  }

  /** A renamed Connect failure: the renamed keys only, still false with a negative code. */
  function expectRenamedFailure(res: Response, httpStatus: number, code: number, renames: Record<string, string> = FULL_RENAME) {
    const key = (name: string) => renames[name] ?? name;
    expect({ http: res.status, body: res.body }).toStrictEqual({
      http: httpStatus,
      body: {
        [key('status')]: false,
        [key('code')]: code,
        [key('reason')]: expect.any(String),
        [key('request_id')]: res.headers['x-request-id'],
      },
    });
    expect(code).toBeLessThan(0);
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    stranger = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  describe('reading and resetting', () => {
    it('GET answers the default when nothing is configured, and logins get the default body', async () => {
      const project = await program();
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
      const card = await insertCard(t, project.id);
      const res = await login(project, { user_key: card.code, serial: 'd' }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'reason', 'request_id', 'status']);
      expect(res.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('PUT answers and stores the customization, marking it customized', async () => {
      const project = await program();
      const body = { field_names: { status: 'ok' }, token_algorithm: 'md5', token_template: '{user_key}-{serial}' };
      const res = await put(project, body).expect(200);
      const expected = { customized: true, ...body, has_secret: false, updated_at: expect.any(String) };
      expect(res.body).toStrictEqual(expected);
      expect(Number.isNaN(Date.parse(res.body.updated_at))).toBe(false);
      expect(await view(project)).toStrictEqual(expected);
    });

    it('PUT is idempotent: the same body again answers 200 with the same resource', async () => {
      const project = await program();
      for (const body of [{ field_names: { status: 'ok' }, token_algorithm: 'md5', token_template: '{serial}' }, {}]) {
        const first = await put(project, body).expect(200);
        const again = await put(project, body).expect(200);
        expect(again.body).toStrictEqual(first.body);
        expect(await view(project)).toStrictEqual(first.body);
      }
    });

    it('PUT replaces the whole customization (earlier renames and token settings go)', async () => {
      const project = await program();
      await put(project, {
        field_names: { status: 'ok', data: 'payload' },
        token_algorithm: 'sha256',
        token_template: '{serial}',
      }).expect(200);
      await put(project, { field_names: { reason: 'why' } }).expect(200);
      expect(await view(project)).toMatchObject({
        customized: true,
        field_names: { reason: 'why' },
        token_algorithm: null,
        token_template: null,
      });
      const card = await insertCard(t, project.id);
      const res = await login(project, { user_key: card.code, serial: 'd' }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'request_id', 'status', 'why']);
      expect(res.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('takes effect on the very next login after PUT and after DELETE (no stale cached answer)', async () => {
      const project = await program();
      const card = await insertCard(t, project.id, { deviceLimit: 3 });
      const keys = async (serial: string) =>
        Object.keys((await login(project, { user_key: card.code, serial }).expect(200)).body).sort();
      expect(await keys('a')).toEqual(['code', 'data', 'reason', 'request_id', 'status']);
      await put(project, { field_names: { status: 'ok' } }).expect(200);
      expect(await keys('a')).toEqual(['code', 'data', 'ok', 'reason', 'request_id']);
      await put(project, { field_names: { status: 'fine' } }).expect(200);
      expect(await keys('a')).toEqual(['code', 'data', 'fine', 'reason', 'request_id']);
      await author.delete(path(project)).expect(204);
      expect(await keys('a')).toEqual(['code', 'data', 'reason', 'request_id', 'status']);
    });

    it('DELETE resets to the default body, and answers 204 even when nothing is configured', async () => {
      const project = await program();
      await put(project, { field_names: FULL_RENAME, token_algorithm: 'md5', token_template: '{serial}' }).expect(200);
      await author.delete(path(project)).expect(204);
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
      const card = await insertCard(t, project.id);
      const res = await login(project, { user_key: card.code, serial: 'after-reset' }).expect(200);
      expect(res.body).toStrictEqual({
        status: true,
        code: 1,
        reason: expect.any(String),
        data: {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          expires_at: expect.stringMatching(TIMESTAMP),
          expires_at_iso: expect.any(String),
          device_limit: 1,
          server_time: expect.any(Number),
          machine_code: 'after-reset',
          announcement: '',
          // Not a field of decisions §8's renames: a card type's features keep their name.
          features: [],
          trial: false,
        },
        request_id: res.headers['x-request-id'],
      });
      expect(res.body.data.token).not.toBe(md5('after-reset'));
      await author.delete(path(project)).expect(204);
      expect(await connectRepos(t).customizations.countBy({ projectId: project.id })).toBe(0);
    });

    it("answers 404 for another author's project on GET, PUT, DELETE and preview, and changes nothing", async () => {
      const project = await program();
      await put(project, { field_names: { status: 'ok' } }).expect(200);
      const before = await view(project);
      expectAdminError(await stranger.get(path(project)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await put(project, { field_names: { status: 'hijacked' } }, stranger), 404, PROJECT_NOT_FOUND);
      expectAdminError(await stranger.delete(path(project)), 404, PROJECT_NOT_FOUND);
      expectAdminError(await stranger.post(`${path(project)}/preview`), 404, PROJECT_NOT_FOUND);
      expect(await view(project)).toEqual(before);
    });

    it('answers 401 without an admin token', async () => {
      const project = await program();
      expectAdminError(await t.http().get(path(project)), 401, UNAUTHENTICATED);
      expectAdminError(
        await t
          .http()
          .put(path(project))
          .send({ field_names: { status: 'ok' } }),
        401,
        UNAUTHENTICATED,
      );
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
    });
  });

  describe('field renames (decisions §8)', () => {
    it('renames every field of a success, at the top level and inside data, and keeps every value', async () => {
      const project = await program();
      await put(project, { field_names: FULL_RENAME }).expect(200);
      const card = await insertCard(t, project.id, { deviceLimit: 3, durationSeconds: 0 });
      const res = await login(project, { user_key: card.code, serial: 'renamed-device' }).expect(200);
      expect(res.body).toStrictEqual({
        ok: true,
        result_code: 1,
        message: expect.any(String),
        payload: {
          licence_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          valid_until: PERMANENT,
          // The sibling is not renameable: it keeps its name beside a renamed expires_at (docs/protocol.md).
          expires_at_iso: '9999-12-31T23:59:59+00:00',
          max_devices: 3,
          now: expect.any(Number),
          hwid: 'renamed-device',
          notice: '',
          features: [],
          trial: false,
        },
        trace: res.headers['x-request-id'],
      });
      expect(Math.abs(res.body.payload.now - Date.now() / 1000)).toBeLessThan(5);
    });

    it('renames only the named fields and leaves the others as they are', async () => {
      const project = await program();
      await put(project, { field_names: { token: 'key', reason: 'msg' } }).expect(200);
      const card = await insertCard(t, project.id);
      const res = await login(project, { user_key: card.code, serial: 'd' }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'msg', 'request_id', 'status']);
      expect(Object.keys(res.body.data).sort()).toEqual([
        'announcement',
        'device_limit',
        'expires_at',
        'expires_at_iso',
        'features',
        'key',
        'machine_code',
        'server_time',
        'trial',
      ]);
      expect(res.body.status).toBe(true);
    });

    it('applies the renames on /conncet as well', async () => {
      const project = await program();
      await put(project, { field_names: FULL_RENAME }).expect(200);
      const card = await insertCard(t, project.id);
      const ok = await login(project, { user_key: card.code, serial: 'old-path' }, 'conncet').expect(200);
      expect(ok.body).toMatchObject({ ok: true, result_code: 1, payload: { hwid: 'old-path' } });
      expectRenamedFailure(await login(project, { user_key: 'NOPE', serial: 'x' }, 'conncet'), 200, -20001);
    });

    it('renames failures too, but a failure stays false with a negative code (card, device, nonce, malformed)', async () => {
      const project = await program();
      await put(project, { field_names: FULL_RENAME, token_algorithm: 'md5', token_template: '{serial}' }).expect(200);
      const card = await insertCard(t, project.id, { deviceLimit: 1 });
      await login(project, { user_key: card.code, serial: 'first', nonce: 'renamed-nonce' }).expect(200);

      expectRenamedFailure(await login(project, { user_key: 'NO-SUCH', serial: 'x' }), 200, -20001);
      expectRenamedFailure(await login(project, { user_key: card.code, serial: 'second' }), 200, -20004);
      expectRenamedFailure(await login(project, { user_key: card.code, serial: 'first', nonce: 'renamed-nonce' }), 409, -10103);
      expectRenamedFailure(await login(project, { user_key: card.code }), 400, -10001);
      // The body type is checked at the input boundary, before the program (and its renames) is looked up.
      expectRenamedFailure(
        await t.http().post(`/connect/${project.program_id}`).send({ user_key: card.code, serial: 'first' }),
        415,
        -10007,
        {},
      );
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(1);
    });

    it('keeps a failure a failure when status and code are renamed to the names other protocols use for success', async () => {
      const project = await program();
      const renames = { status: 'success', code: 'statecode', reason: 'msg' };
      await put(project, { field_names: renames }).expect(200);
      const res = await login(project, { user_key: 'NO-SUCH', serial: 'x' });
      expectRenamedFailure(res, 200, -20001, renames);
      expect(res.body.success).toBe(false);
      expect(res.body).not.toHaveProperty('status');
      expect(res.body).not.toHaveProperty('code');
    });

    it('does not bypass any check: ban, expiry, program status, verification switch, authorization and quota still refuse, renamed', async () => {
      const project = await program();
      await put(project, { field_names: FULL_RENAME, token_algorithm: 'sha256', token_template: '{user_key}' }).expect(200);
      const banned = await insertCard(t, project.id, { status: 'banned' });
      expectRenamedFailure(await login(project, { user_key: banned.code, serial: 'x' }), 200, -20003);
      const expired = await insertCard(t, project.id, { status: 'active', expiresAt: new Date(Date.now() - 1000) });
      expectRenamedFailure(await login(project, { user_key: expired.code, serial: 'x' }), 200, -20002);

      const card = await insertCard(t, project.id);
      await author.patch(`/admin/v1/projects/${project.id}`, { status: 'disabled' }).expect(200);
      expectRenamedFailure(await login(project, { user_key: card.code, serial: 'x' }), 403, -10202);
      await author.patch(`/admin/v1/projects/${project.id}`, { status: 'active', verification_enabled: false }).expect(200);
      expectRenamedFailure(await login(project, { user_key: card.code, serial: 'x' }), 403, -10204);
      await author.patch(`/admin/v1/projects/${project.id}`, { verification_enabled: true }).expect(200);
      await admin.put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: false }).expect(200);
      expectRenamedFailure(await login(project, { user_key: card.code, serial: 'x' }), 403, -10206);
      await admin.put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: true, daily_quota: 0 }).expect(200);
      const quota = await login(project, { user_key: card.code, serial: 'x' });
      expectRenamedFailure(quota, 429, -10301);
      await expectOneLogRow(t, quota, 10301, project.id);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(0);
    });

    it("changes nothing in another program's answers", async () => {
      const customized = await program();
      const plain = await program();
      await put(customized, { field_names: FULL_RENAME, token_algorithm: 'md5', token_template: '{serial}' }).expect(200);
      const card = await insertCard(t, plain.id);
      const ok = await login(plain, { user_key: card.code, serial: 'plain-device' }).expect(200);
      expect(Object.keys(ok.body).sort()).toEqual(['code', 'data', 'reason', 'request_id', 'status']);
      expect(ok.body.data.token).not.toBe(md5('plain-device'));
      const failed = await login(plain, { user_key: 'NOPE', serial: 'x' });
      expect(Object.keys(failed.body).sort()).toEqual(['code', 'reason', 'request_id', 'status']);
    });

    it.each([
      ['a rename to another default name', { status: 'code' }, 'allowed_fields'],
      ['a rename of data to a name inside data', { data: 'token' }, 'allowed_fields'],
      ['one target used twice', { status: 'same', code: 'same' }, 'allowed_fields'],
      ['a target starting with a digit', { status: '1ok' }, 'allowed_fields'],
      ['a target with a hyphen', { status: 'ok-1' }, 'allowed_fields'],
      ['a target of 33 characters', { status: 'x'.repeat(33) }, 'allowed_fields'],
      ['an empty target', { status: '' }, 'allowed_fields'],
      ['a target that is not a string', { status: 1 }, 'allowed_fields'],
      ['a rename to error_id, which platform faults carry', { reason: 'error_id' }, 'allowed_fields'],
      ['an unknown field', { success: 'ok' }, 'allowed_fields'],
      ['error_id, which cannot be renamed', { error_id: 'err' }, 'allowed_fields'],
    ] as const)(
      'refuses %s with 400 listing the allowed fields, and keeps the previous state',
      async (_label, fieldNames, listed) => {
        const project = await program();
        await put(project, { field_names: { reason: 'why' }, token_algorithm: 'md5', token_template: '{serial}' }).expect(200);
        const res = await expectRefusedPut(project, { field_names: fieldNames }, listed);
        expect(JSON.stringify(res.body.error.details.problems)).toContain('field_names');
        const card = await insertCard(t, project.id);
        const ok = await login(project, { user_key: card.code, serial: 'kept' }).expect(200);
        expect(ok.body.why).toEqual(expect.any(String));
        expect(ok.body.data.token).toBe(md5('kept'));
      },
    );

    it.each([
      ['status', '__proto__'],
      ['status', 'constructor'],
      ['status', 'prototype'],
      ['status', 'toString'],
      ['data', 'hasOwnProperty'],
      ['data', 'valueOf'],
    ])('refuses renaming %s to %s, a built-in object property, and the answers keep their fields', async (field, target) => {
      const project = await program();
      const res = await expectRefusedPut(project, { field_names: { [field]: target } }, 'allowed_fields');
      expect(JSON.stringify(res.body.error.details.problems)).toContain(`field_names.${field}`);
      const card = await insertCard(t, project.id);
      const ok = await login(project, { user_key: card.code, serial: 'd' }).expect(200);
      expect(Object.keys(ok.body).sort()).toEqual(['code', 'data', 'reason', 'request_id', 'status']);
      expect(ok.body).toMatchObject({ status: true, data: { machine_code: 'd' } });
    });

    it('keeps every field even when a stored rename targets __proto__ (renaming never reaches the prototype)', async () => {
      const project = await program();
      // Written past the PUT checks, as rows stored before they existed may be.
      await connectRepos(t).customizations.save({
        projectId: project.id,
        fieldNames: { status: '__proto__', data: 'constructor', token: '__proto__' },
        tokenAlgorithm: null,
        tokenTemplate: null,
        secretEnc: null,
      });
      const card = await insertCard(t, project.id);
      const res = await login(project, { user_key: card.code, serial: 'proto' }).expect(200);
      expect(res.text).toMatch(/^\{"__proto__":true,"code":1,/);
      expect(Object.keys(res.body).sort()).toEqual(['__proto__', 'code', 'constructor', 'reason', 'request_id']);
      expect(Object.keys(res.body.constructor)).toContain('__proto__');
      expect(res.body.constructor).toMatchObject({ machine_code: 'proto' });
      const failed = await login(project, { user_key: 'NO-SUCH', serial: 'x' }).expect(200);
      expect(failed.text).toMatch(/^\{"__proto__":false,"code":-20001,/);
    });

    it('refuses field_names that is not an object', async () => {
      const project = await program();
      for (const fieldNames of [['status'], 'status', 5]) {
        expectAdminError(await put(project, { field_names: fieldNames }), 400, BAD_REQUEST, 'field_names');
      }
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
    });
  });

  describe('token algorithms over the template (decisions §8)', () => {
    /** A login with a permanent card, so {expires_at} is known before the answer. */
    async function tokenFor(project: Project, serial: string, nonce?: string) {
      const card = await insertCard(t, project.id, { durationSeconds: 0, deviceLimit: 4 });
      const body: Record<string, string> = { user_key: card.code, serial, ...(nonce ? { nonce } : {}) };
      const res = await login(project, body).expect(200);
      expect(res.body.status).toBe(true);
      return { card, res, token: res.body.data.token as string };
    }
    const TEMPLATE = 'k={user_key};s={serial};p={program_id};n={nonce};d={device_limit};e={expires_at}';
    const rendered = (project: Project, userKey: string, serial: string, nonce = '') =>
      `k=${userKey};s=${serial};p=${project.program_id};n=${nonce};d=4;e=${PERMANENT}`;

    it('md5: the token is lowercase hex MD5 of the template rendered with the request values', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'md5', token_template: TEMPLATE }).expect(200);
      const { card, token } = await tokenFor(project, 'md5-device', 'md5-nonce');
      expect(token).toBe(md5(rendered(project, card.code, 'md5-device', 'md5-nonce')));
      expect(token).toMatch(/^[0-9a-f]{32}$/);
    });

    it('sha256: the token is lowercase hex SHA-256 of the rendered template', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'sha256', token_template: TEMPLATE }).expect(200);
      const { card, token } = await tokenFor(project, 'sha-device', 'sha-nonce');
      expect(token).toBe(sha256(rendered(project, card.code, 'sha-device', 'sha-nonce')));
      expect(token).toMatch(/^[0-9a-f]{64}$/);
    });

    it('hmac_sha256: the token is lowercase hex HMAC-SHA256 keyed with the stored secret', async () => {
      const project = await program();
      const secret = `hmac-secret-${Date.now()}`;
      await put(project, { token_algorithm: 'hmac_sha256', token_template: TEMPLATE, secret }).expect(200);
      const { card, token } = await tokenFor(project, 'hmac-device');
      expect(token).toBe(hmacSha256(secret, rendered(project, card.code, 'hmac-device')));
    });

    it('renders {nonce} as empty when the request has none', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'md5', token_template: '[{nonce}]{serial}' }).expect(200);
      const { token } = await tokenFor(project, 'no-nonce');
      expect(token).toBe(md5('[]no-nonce'));
    });

    it('renders {timestamp} as the server_time of the answer', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'sha256', token_template: '{serial}@{timestamp}' }).expect(200);
      const { res, token } = await tokenFor(project, 'clock-device');
      expect(token).toBe(sha256(`clock-device@${res.body.data.server_time}`));
    });

    it('renders {expires_at} of a timed card as the expires_at of the answer', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'md5', token_template: '{expires_at}|{serial}' }).expect(200);
      const card = await insertCard(t, project.id, { durationSeconds: 86400 });
      const res = await login(project, { user_key: card.code, serial: 'timed' }).expect(200);
      expect(res.body.data.expires_at).not.toBe(PERMANENT);
      expect(res.body.data.token).toBe(md5(`${res.body.data.expires_at}|timed`));
    });

    it('renders {secret} with the stored secret in md5 and sha256 templates', async () => {
      const project = await program();
      const secret = 'placeholder-secret';
      await put(project, { token_algorithm: 'md5', token_template: '{serial}:{secret}', secret }).expect(200);
      expect((await tokenFor(project, 'sec')).token).toBe(md5(`sec:${secret}`));
    });

    it('applies the token to /conncet as well', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'md5', token_template: '{serial}' }).expect(200);
      const card = await insertCard(t, project.id);
      const res = await login(project, { user_key: card.code, serial: 'old-spelling' }, 'conncet').expect(200);
      expect(res.body.data.token).toBe(md5('old-spelling'));
    });

    it('combines a custom token with renamed fields', async () => {
      const project = await program();
      await put(project, { field_names: FULL_RENAME, token_algorithm: 'md5', token_template: '{serial}' }).expect(200);
      const card = await insertCard(t, project.id);
      const res = await login(project, { user_key: card.code, serial: 'both' }).expect(200);
      expect(res.body.payload.licence_token).toBe(md5('both'));
    });

    it('refuses an algorithm without a template, and a template without an algorithm, with 400', async () => {
      const project = await program();
      await expectRefusedPut(project, { token_algorithm: 'md5' }, null);
      await expectRefusedPut(project, { token_template: '{serial}' }, null);
      await expectRefusedPut(project, { token_algorithm: 'md5', token_template: null }, null);
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
    });

    it('refuses an unknown algorithm (custom code is not allowed)', async () => {
      const project = await program();
      for (const algorithm of ['sha1', 'MD5', 'js', 'function(){}']) {
        expectAdminError(
          await put(project, { token_algorithm: algorithm, token_template: '{serial}' }),
          400,
          BAD_REQUEST,
          'token_algorithm',
        );
      }
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
    });

    it.each(['{foo}', '{USER_KEY}', '{constructor}', '{user_key.length}', '{ serial }', '${process.env}'])(
      'refuses the unknown placeholder %s with 400 listing the allowed placeholders',
      async (placeholder) => {
        const project = await program();
        await put(project, { token_algorithm: 'md5', token_template: '{serial}' }).expect(200);
        const res = await expectRefusedPut(
          project,
          { token_algorithm: 'md5', token_template: `{user_key}${placeholder}` },
          'allowed_placeholders',
        );
        expect(JSON.stringify(res.body.error.details.problems)).toContain('unknown placeholder');
      },
    );

    it('refuses a template longer than 512 characters and accepts one of 512', async () => {
      const project = await program();
      expectAdminError(
        await put(project, { token_algorithm: 'md5', token_template: 'x'.repeat(513) }),
        400,
        BAD_REQUEST,
        'token_template',
      );
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
      const template = '{serial}'.padEnd(512, 'y');
      await put(project, { token_algorithm: 'md5', token_template: template }).expect(200);
      expect((await tokenFor(project, 'long')).token).toBe(md5(`long${'y'.repeat(504)}`));
    });

    it('refuses fields the customization does not have', async () => {
      const project = await program();
      expectAdminError(
        await put(project, { token_algorithm: 'md5', token_template: '{serial}', script: 'x' }),
        400,
        BAD_REQUEST,
        'script',
      );
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
    });
  });

  describe('the compatibility secret (decisions §8)', () => {
    it('is never returned (has_secret only), never logged, and stored encrypted', async () => {
      const project = await program();
      const secret = `never-shown-${Date.now()}-secret`;
      const putRes = await put(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}', secret }).expect(200);
      expect(putRes.body).toMatchObject({ has_secret: true });
      expect(putRes.body).not.toHaveProperty('secret');
      const bodies = [
        putRes.text,
        (await author.get(path(project)).expect(200)).text,
        (await author.post(`${path(project)}/preview`).expect(200)).text,
      ];
      const card = await insertCard(t, project.id);
      const loginRes = await login(project, { user_key: card.code, serial: 'secret-device' }).expect(200);
      bodies.push(loginRes.text, JSON.stringify(loginRes.headers));
      for (const text of bodies) expect(text).not.toContain(secret);
      expect(t.logs.join('\n')).not.toContain(secret);
      const rows = await cardRepos(t).logs.findBy({ projectId: project.id });
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).not.toContain(secret);
      const stored = await connectRepos(t).customizations.findOneByOrFail({ projectId: project.id });
      expect(stored.secretEnc).toEqual(expect.any(String));
      expect(stored.secretEnc).not.toContain(secret);
      expect(stored.secretEnc).not.toContain(Buffer.from(secret).toString('base64'));
      expect(loginRes.body.data.token).toBe(hmacSha256(secret, 'secret-device'));
    });

    it('stays when a PUT does not send it, is replaced by a new one, and is removed by secret: null', async () => {
      const project = await program();
      const card = await insertCard(t, project.id, { deviceLimit: 5 });
      const tokenOf = async (serial: string) =>
        (await login(project, { user_key: card.code, serial }).expect(200)).body.data.token;

      await put(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}', secret: 'first-secret' }).expect(200);
      expect(await tokenOf('a')).toBe(hmacSha256('first-secret', 'a'));

      const kept = await put(project, {
        field_names: { reason: 'msg' },
        token_algorithm: 'hmac_sha256',
        token_template: '{serial}|x',
      }).expect(200);
      expect(kept.body.has_secret).toBe(true);
      expect(await tokenOf('b')).toBe(hmacSha256('first-secret', 'b|x'));

      await put(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}', secret: 'second-secret' }).expect(200);
      expect(await tokenOf('c')).toBe(hmacSha256('second-secret', 'c'));

      const removed = await put(project, { token_algorithm: 'md5', token_template: '{serial}', secret: null }).expect(200);
      expect(removed.body.has_secret).toBe(false);
      expect(await tokenOf('d')).toBe(md5('d'));
      expect((await connectRepos(t).customizations.findOneByOrFail({ projectId: project.id })).secretEnc).toBeNull();
    });

    it('refuses hmac_sha256 or a {secret} template while no secret is stored, and keeps the previous state', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'md5', token_template: '{serial}', secret: 'temporary' }).expect(200);
      await put(project, { token_algorithm: 'md5', token_template: '{serial}', secret: null }).expect(200);
      const res = await expectRefusedPut(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}' }, null);
      expect(JSON.stringify(res.body.error.details.problems)).toContain('secret');
      await expectRefusedPut(project, { token_algorithm: 'sha256', token_template: '{serial}{secret}' }, null);
      await expectRefusedPut(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}', secret: null }, null);
      expect(await view(project)).toMatchObject({ token_algorithm: 'md5', has_secret: false });
    });

    it('refuses an empty secret', async () => {
      const project = await program();
      expectAdminError(
        await put(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}', secret: '' }),
        400,
        BAD_REQUEST,
        'secret',
      );
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
    });

    it('is removed by DELETE together with the rest of the customization', async () => {
      const project = await program();
      await put(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}', secret: 'gone-after-reset' }).expect(200);
      await author.delete(path(project)).expect(204);
      expect(await view(project)).toStrictEqual(DEFAULT_VIEW);
      await expectRefusedPut(project, { token_algorithm: 'hmac_sha256', token_template: '{serial}' }, null);
    });
  });

  describe('preview', () => {
    it('shows the default success and failure when nothing is configured', async () => {
      const project = await program();
      const res = await author.post(`${path(project)}/preview`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['failure', 'success']);
      expect(res.body.success).toMatchObject({
        status: true,
        code: 1,
        data: expect.objectContaining({ token: expect.any(String) }),
      });
      expect(Object.keys(res.body.success.data).sort()).toEqual([
        'announcement',
        'device_limit',
        'expires_at',
        'expires_at_iso',
        'machine_code',
        'server_time',
        'token',
      ]);
      expect(res.body.failure).toStrictEqual({
        status: false,
        code: expect.any(Number),
        reason: expect.any(String),
        request_id: expect.any(String),
      });
      expect(res.body.failure.code).toBeLessThan(0);
    });

    it('renders {success, failure} with the current renames and token', async () => {
      const project = await program();
      const template = '{program_id}|{serial}|{device_limit}|{expires_at}';
      await put(project, { field_names: FULL_RENAME, token_algorithm: 'md5', token_template: template }).expect(200);
      const res = await author.post(`${path(project)}/preview`).expect(200);
      const { success, failure } = res.body as { success: Body & { payload: Body }; failure: Body };
      expect(Object.keys(success).sort()).toEqual(['message', 'ok', 'payload', 'result_code', 'trace']);
      expect(success).toMatchObject({ ok: true, result_code: 1 });
      expect(Object.keys(success.payload).sort()).toEqual([
        'expires_at_iso',
        'hwid',
        'licence_token',
        'max_devices',
        'notice',
        'now',
        'valid_until',
      ]);
      const p = success.payload;
      expect(p.licence_token).toBe(md5(`${project.program_id}|${p.hwid}|${p.max_devices}|${p.valid_until}`));
      expect(Object.keys(failure).sort()).toEqual(['message', 'ok', 'result_code', 'trace']);
      expect(failure.ok).toBe(false);
      expect(failure.result_code).toBeLessThan(0);
    });

    it('follows the stored settings: after DELETE it is the default again', async () => {
      const project = await program();
      await put(project, { field_names: { status: 'ok' } }).expect(200);
      expect((await author.post(`${path(project)}/preview`).expect(200)).body.success).toHaveProperty('ok', true);
      await author.delete(path(project)).expect(204);
      expect((await author.post(`${path(project)}/preview`).expect(200)).body.success).toHaveProperty('status', true);
    });
  });
});
