import { AdminClient, login } from '../../support/admin-client';
import {
  ACCOUNT_DISABLED,
  AUTHOR_NOT_FOUND,
  AUTHOR_USERNAME_TAKEN,
  BAD_REQUEST,
  expectAdminError,
  FORBIDDEN,
  UNAUTHENTICATED,
} from '../../support/admin-errors';
import { startTestApp, TestApp, unique } from '../../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const PASSWORD = 'a-good-password-1';

interface AuthorBody {
  id: string;
  username: string;
  role: string;
  status: string;
  daily_api_quota: number | null;
  daily_verify_quota: number | null;
  created_at: string;
  updated_at: string;
}

describe('authors admin API (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t.close());

  /** Authors whose username contains `q`, as the platform admin sees them. */
  async function search(q: string, extra = ''): Promise<{ items: AuthorBody[]; total: number; page: number; page_size: number }> {
    return (await admin.get(`/admin/v1/authors?q=${encodeURIComponent(q)}${extra}`).expect(200)).body;
  }

  describe('POST /admin/v1/authors', () => {
    it('creates an active author and answers 201 with its public fields, never the password or its hash', async () => {
      const username = unique('Alice');
      const res = await admin
        .post('/admin/v1/authors', { username, password: PASSWORD, daily_api_quota: 1000, daily_verify_quota: 50 })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        username,
        role: 'author',
        status: 'active',
        daily_api_quota: 1000,
        daily_verify_quota: 50,
        created_at: expect.stringMatching(ISO_TIME),
        updated_at: expect.stringMatching(ISO_TIME),
      });
      expect(Math.abs(new Date(res.body.created_at).getTime() - Date.now())).toBeLessThan(60_000);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toMatch(/argon|scrypt|password|hash/i);

      const got = await admin.get(`/admin/v1/authors/${res.body.id}`).expect(200);
      expect(got.body).toEqual(res.body);

      const session = await t.http().post('/admin/v1/auth/login').send({ username, password: PASSWORD }).expect(200);
      expect(session.body.role).toBe('author');
    });

    it('leaves both daily quotas unlimited (null) when they are not given', async () => {
      const res = await admin.post('/admin/v1/authors', { username: unique('nolimit'), password: PASSWORD }).expect(201);
      expect(res.body).toMatchObject({ daily_api_quota: null, daily_verify_quota: null, status: 'active' });
      const zero = await admin
        .post('/admin/v1/authors', { username: unique('zero'), password: PASSWORD, daily_api_quota: 0, daily_verify_quota: null })
        .expect(201);
      expect(zero.body).toMatchObject({ daily_api_quota: 0, daily_verify_quota: null });
    });

    it('refuses a username taken in any letter case with 409 (11201 AUTHOR_USERNAME_TAKEN) and keeps the first account untouched', async () => {
      const username = unique('dup');
      await admin.post('/admin/v1/authors', { username, password: PASSWORD }).expect(201);
      const again = await admin.post('/admin/v1/authors', { username: username.toUpperCase(), password: 'another-password' });
      expectAdminError(again, 409, AUTHOR_USERNAME_TAKEN, 'username');
      const same = await admin.post('/admin/v1/authors', { username, password: 'another-password' });
      expectAdminError(same, 409, AUTHOR_USERNAME_TAKEN);

      const found = await search(username);
      expect(found.total).toBe(1);
      expect(found.items[0].username).toBe(username);
      // The first password still works; the refused one was never stored.
      await t.http().post('/admin/v1/auth/login').send({ username, password: PASSWORD }).expect(200);
      await t.http().post('/admin/v1/auth/login').send({ username, password: 'another-password' }).expect(401);
    });

    const badInputs: Array<[string, (base: string) => Record<string, unknown>, string]> = [
      ['a username with a space', (b) => ({ username: `${b} x`, password: PASSWORD }), 'username'],
      ['a username with a bad character', (b) => ({ username: `${b}!`, password: PASSWORD }), 'username'],
      ['a username over 32 characters', (b) => ({ username: b + 'x'.repeat(33 - b.length), password: PASSWORD }), 'username'],
      ['a username that is not a string', () => ({ username: 12345678, password: PASSWORD }), 'username'],
      ['a missing username', () => ({ password: PASSWORD }), 'username'],
      ['a password of 7 characters', (b) => ({ username: b, password: 'seven77' }), 'password'],
      ['a missing password', (b) => ({ username: b }), 'password'],
      ['a password over 128 characters', (b) => ({ username: b, password: 'p'.repeat(129) }), 'password'],
      ['a negative daily_api_quota', (b) => ({ username: b, password: PASSWORD, daily_api_quota: -1 }), 'daily_api_quota'],
      [
        'a negative daily_verify_quota',
        (b) => ({ username: b, password: PASSWORD, daily_verify_quota: -5 }),
        'daily_verify_quota',
      ],
      ['a fractional quota', (b) => ({ username: b, password: PASSWORD, daily_api_quota: 1.5 }), 'daily_api_quota'],
      ['a quota sent as a string', (b) => ({ username: b, password: PASSWORD, daily_verify_quota: '10' }), 'daily_verify_quota'],
      [
        'a quota beyond the 32-bit range',
        (b) => ({ username: b, password: PASSWORD, daily_api_quota: 2 ** 31 }),
        'daily_api_quota',
      ],
      ['an unknown field', (b) => ({ username: b, password: PASSWORD, role: 'platform_admin' }), 'role'],
      ['a status on create', (b) => ({ username: b, password: PASSWORD, status: 'disabled' }), 'status'],
    ];
    it.each(badInputs)('answers 400 (10001) naming the field for %s, and creates nothing', async (_label, body, field) => {
      const base = unique('bad');
      const res = await admin.post('/admin/v1/authors', body(base));
      expectAdminError(res, 400, BAD_REQUEST, field);
      expect((await search(base)).total).toBe(0);
    });

    it('answers 400 for a username of two characters and creates nothing', async () => {
      const res = await admin.post('/admin/v1/authors', { username: 'zq', password: PASSWORD });
      expectAdminError(res, 400, BAD_REQUEST, 'username');
      expect((await search('zq', '&page_size=100')).items.map((a) => a.username.toLowerCase())).not.toContain('zq');
    });
  });

  describe('GET /admin/v1/authors', () => {
    it('pages authors newest first with {items, total, page, page_size}', async () => {
      const tag = unique('pg');
      const created: string[] = [];
      for (const suffix of ['a', 'b', 'c']) {
        created.push(
          (await admin.post('/admin/v1/authors', { username: `${tag}${suffix}`, password: PASSWORD }).expect(201)).body.username,
        );
      }
      const first = await search(tag, '&page_size=2');
      expect(first).toMatchObject({ total: 3, page: 1, page_size: 2 });
      expect(first.items.map((a) => a.username)).toEqual([created[2], created[1]]);
      const second = await search(tag, '&page_size=2&page=2');
      expect(second).toMatchObject({ total: 3, page: 2, page_size: 2 });
      expect(second.items.map((a) => a.username)).toEqual([created[0]]);
      const beyond = await search(tag, '&page_size=2&page=3');
      expect(beyond).toEqual({ items: [], total: 3, page: 3, page_size: 2 });

      const defaults = await search(tag);
      expect(defaults).toMatchObject({ total: 3, page: 1, page_size: 20 });
      for (const item of defaults.items) {
        expect(Object.keys(item).sort()).toEqual([
          'created_at',
          'daily_api_quota',
          'daily_verify_quota',
          'id',
          'role',
          'status',
          'updated_at',
          'username',
        ]);
        expect(item.role).toBe('author');
      }
    });

    it.each([
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page_size=ten', 'page_size'],
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1e300', 'page'],
      ['status=paused', 'status'],
      ['sort=username', 'sort'],
    ])('answers 400 naming the parameter for ?%s', async (query, field) => {
      expectAdminError(await admin.get(`/admin/v1/authors?${query}`), 400, BAD_REQUEST, field);
    });

    it('accepts page_size 100, the largest page', async () => {
      const res = await admin.get('/admin/v1/authors?page_size=100').expect(200);
      expect(res.body.page_size).toBe(100);
      expect(res.body.items.length).toBeLessThanOrEqual(100);
    });

    it('PATCH refuses a null password or status (they cannot be unset), changing nothing', async () => {
      const made = await admin.post('/admin/v1/authors', { username: unique('pt'), password: PASSWORD }).expect(201);
      const path = `/admin/v1/authors/${made.body.id}`;
      expectAdminError(await admin.patch(path, { password: null }), 400, BAD_REQUEST, 'password');
      expectAdminError(await admin.patch(path, { status: null, daily_api_quota: 3 }), 400, BAD_REQUEST, 'status');
      expect((await admin.get(path).expect(200)).body).toMatchObject({ status: 'active', daily_api_quota: null });
    });

    it('filters by status and by a username fragment in any letter case', async () => {
      const tag = unique('flt');
      const keep = await admin.post('/admin/v1/authors', { username: `${tag}on`, password: PASSWORD }).expect(201);
      const off = await admin.post('/admin/v1/authors', { username: `${tag}off`, password: PASSWORD }).expect(201);
      await admin.patch(`/admin/v1/authors/${off.body.id}`, { status: 'disabled' }).expect(200);

      const all = await search(tag.toUpperCase());
      expect(all.items.map((a) => a.id).sort()).toEqual([keep.body.id, off.body.id].sort());
      const disabled = await search(tag, '&status=disabled');
      expect(disabled.total).toBe(1);
      expect(disabled.items[0]).toMatchObject({ id: off.body.id, status: 'disabled' });
      const active = await search(tag, '&status=active');
      expect(active.total).toBe(1);
      expect(active.items[0]).toMatchObject({ id: keep.body.id, status: 'active' });
    });

    it('treats _ and % in the fragment literally', async () => {
      const tag = unique('lit').replace(/_/g, '');
      await admin.post('/admin/v1/authors', { username: `${tag}ab`, password: PASSWORD }).expect(201);
      expect((await search(`${tag}_b`)).total).toBe(0);
      expect((await search(`${tag}%b`)).total).toBe(0);
      expect((await search(`${tag}ab`)).total).toBe(1);
    });

    it('never lists or serves the platform admin as an author', async () => {
      const me = (await admin.get('/admin/v1/auth/me').expect(200)).body;
      const listed = await search('admin', '&page_size=100');
      expect(listed.items.map((a) => a.id)).not.toContain(me.id);
      expect(listed.items.every((a) => a.role === 'author')).toBe(true);
      expectAdminError(await admin.get(`/admin/v1/authors/${me.id}`), 404, AUTHOR_NOT_FOUND);
      expectAdminError(await admin.patch(`/admin/v1/authors/${me.id}`, { status: 'disabled' }), 404, AUTHOR_NOT_FOUND);
      await admin.get('/admin/v1/auth/me').expect(200);
    });
  });

  describe('access', () => {
    it('answers 401 (11001) on every route without a token or with an unknown one', async () => {
      const id = (await admin.post('/admin/v1/authors', { username: unique('noauth'), password: PASSWORD }).expect(201)).body.id;
      const calls = (auth?: string) => {
        const set = <R extends { set: (k: string, v: string) => R }>(r: R) => (auth ? r.set('Authorization', auth) : r);
        return [
          set(t.http().post('/admin/v1/authors')).send({ username: unique('x'), password: PASSWORD }),
          set(t.http().get('/admin/v1/authors')),
          set(t.http().get(`/admin/v1/authors/${id}`)),
          set(t.http().patch(`/admin/v1/authors/${id}`)).send({ status: 'disabled' }),
        ];
      };
      for (const auth of [undefined, 'Bearer not-a-real-token', 'Basic YWRtaW46eA==']) {
        for (const res of await Promise.all(calls(auth))) expectAdminError(res, 401, UNAUTHENTICATED);
      }
      expect((await admin.get(`/admin/v1/authors/${id}`).expect(200)).body.status).toBe('active');
    });

    it('answers 403 (11002) when an author calls any route, and changes nothing', async () => {
      const { client, id } = await admin.createAuthor();
      const target = unique('viaauthor');
      expectAdminError(await client.post('/admin/v1/authors', { username: target, password: PASSWORD }), 403, FORBIDDEN);
      expectAdminError(await client.get('/admin/v1/authors'), 403, FORBIDDEN);
      expectAdminError(await client.get(`/admin/v1/authors/${id}`), 403, FORBIDDEN);
      expectAdminError(await client.patch(`/admin/v1/authors/${id}`, { daily_api_quota: 999999 }), 403, FORBIDDEN);
      expect((await search(target)).total).toBe(0);
      expect((await admin.get(`/admin/v1/authors/${id}`).expect(200)).body.daily_api_quota).toBeNull();
    });

    it('answers 404 (11102 AUTHOR_NOT_FOUND) for an unknown id and for an id that is not a UUID', async () => {
      const unknown = '3f0c1a52-9b7e-4d1c-8a55-0d6f2b9e7c41';
      expectAdminError(await admin.get(`/admin/v1/authors/${unknown}`), 404, AUTHOR_NOT_FOUND);
      expectAdminError(await admin.patch(`/admin/v1/authors/${unknown}`, { status: 'disabled' }), 404, AUTHOR_NOT_FOUND);
      for (const bad of ['123', 'not-a-uuid', `${unknown}x`]) {
        expectAdminError(await admin.get(`/admin/v1/authors/${bad}`), 404, AUTHOR_NOT_FOUND);
        expectAdminError(await admin.patch(`/admin/v1/authors/${bad}`, { status: 'disabled' }), 404, AUTHOR_NOT_FOUND);
      }
    });

    it('finds an author by its id in upper case too', async () => {
      const { id } = await admin.createAuthor();
      expect((await admin.get(`/admin/v1/authors/${id.toUpperCase()}`).expect(200)).body.id).toBe(id);
    });
  });

  describe('PATCH /admin/v1/authors/:id', () => {
    it('changes only the fields sent, and null makes a quota unlimited again', async () => {
      const { id } = await admin.createAuthor({ daily_api_quota: 10, daily_verify_quota: 20 });
      const before = (await admin.get(`/admin/v1/authors/${id}`).expect(200)).body as AuthorBody;
      const res = await admin.patch(`/admin/v1/authors/${id}`, { daily_api_quota: 500 }).expect(200);
      expect(res.body).toEqual({ ...before, daily_api_quota: 500, updated_at: expect.stringMatching(ISO_TIME) });
      const cleared = await admin.patch(`/admin/v1/authors/${id}`, { daily_verify_quota: null }).expect(200);
      expect(cleared.body).toMatchObject({ daily_api_quota: 500, daily_verify_quota: null, status: 'active' });
      expect((await admin.get(`/admin/v1/authors/${id}`).expect(200)).body).toMatchObject({
        daily_api_quota: 500,
        daily_verify_quota: null,
      });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an unknown status', { status: 'banned' }, 'status'],
      ['a negative quota', { daily_api_quota: -1 }, 'daily_api_quota'],
      ['a quota as a string', { daily_verify_quota: 'lots' }, 'daily_verify_quota'],
      ['a short password', { password: 'short' }, 'password'],
      ['a username change', { username: 'renamed' }, 'username'],
      ['a role change', { role: 'platform_admin' }, 'role'],
    ])('answers 400 naming the field for %s, and changes nothing', async (_label, body, field) => {
      const { id, client } = await admin.createAuthor({ daily_api_quota: 7 });
      const before = (await admin.get(`/admin/v1/authors/${id}`).expect(200)).body;
      expectAdminError(await admin.patch(`/admin/v1/authors/${id}`, { daily_verify_quota: 3, ...body }), 400, BAD_REQUEST, field);
      expect((await admin.get(`/admin/v1/authors/${id}`).expect(200)).body).toEqual(before);
      await client.get('/admin/v1/auth/me').expect(200); // a refused change ends no session
    });

    it('disabling an author ends its token at once and refuses its login with 403; enabling lets it back in', async () => {
      const { client, id, username, password } = await admin.createAuthor();
      await client.get('/admin/v1/auth/me').expect(200);

      const res = await admin.patch(`/admin/v1/authors/${id}`, { status: 'disabled' }).expect(200);
      expect(res.body.status).toBe('disabled');
      expectAdminError(await client.get('/admin/v1/auth/me'), 401, UNAUTHENTICATED);
      expectAdminError(await client.get('/admin/v1/projects'), 401, UNAUTHENTICATED);
      const refused = await t.http().post('/admin/v1/auth/login').send({ username, password });
      expectAdminError(refused, 403, ACCOUNT_DISABLED);
      expect(refused.body.token).toBeUndefined();

      await admin.patch(`/admin/v1/authors/${id}`, { status: 'active' }).expect(200);
      expectAdminError(await client.get('/admin/v1/auth/me'), 401, UNAUTHENTICATED); // the old token stays dead
      const token = await login(t, username, password);
      await t.http().get('/admin/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    });

    it('a password reset ends the old token, refuses the old password and accepts the new one', async () => {
      const { client, id, username, password } = await admin.createAuthor();
      const newPassword = 'brand-new-password-2';
      const res = await admin.patch(`/admin/v1/authors/${id}`, { password: newPassword }).expect(200);
      expect(JSON.stringify(res.body)).not.toContain(newPassword);
      expect(res.body.status).toBe('active');

      expectAdminError(await client.get('/admin/v1/auth/me'), 401, UNAUTHENTICATED);
      expectAdminError(await t.http().post('/admin/v1/auth/login').send({ username, password }), 401, UNAUTHENTICATED);
      const token = await login(t, username, newPassword);
      const me = await t.http().get('/admin/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      expect(me.body).toMatchObject({ id, username, role: 'author' });
    });

    it('a quota change keeps the author logged in', async () => {
      const { client, id } = await admin.createAuthor();
      await admin.patch(`/admin/v1/authors/${id}`, { daily_api_quota: 3 }).expect(200);
      await client.get('/admin/v1/auth/me').expect(200);
    });
  });

  it('never writes an author password to a log line', async () => {
    const password = `log-probe-${unique('pw')}`;
    const { id } = await admin.createAuthor({ password });
    const reset = `log-reset-${unique('pw')}`;
    await admin.patch(`/admin/v1/authors/${id}`, { password: reset }).expect(200);
    await admin.post('/admin/v1/authors', { username: '!!', password: `log-bad-${password}` }).expect(400);
    const all = t.logs.join('\n');
    expect(t.logs.length).toBeGreaterThan(0);
    for (const secret of [password, reset]) expect(all).not.toContain(secret);
  });
});
