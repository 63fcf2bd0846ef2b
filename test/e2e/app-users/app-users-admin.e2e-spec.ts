import { AdminClient } from '../../support/admin-client';
import { APP_USER_NOT_FOUND, BAD_REQUEST, expectAdminError, PROJECT_NOT_FOUND } from '../../support/admin-errors';
import { signedPost } from '../../support/signing';
import { CODES, expectStandardFailure } from '../../support/standard';
import { startTestApp, TestApp, unique } from '../../support/test-app';

/** The author's administration of program users (decisions §11: GET, PATCH /projects/:id/app-users[/:userId]). */

const PASSWORD = 'admin-side-pass';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe('program users: admin API (e2e)', () => {
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

  const base = (target: Project = project) => `/admin/v1/projects/${target.id}/app-users`;

  function signed(path: string, target: Project, body: Record<string, string>) {
    return signedPost(t, path, { app: target.program_id, ...body }, 'json', target.api_secret);
  }
  async function registerUser(username = unique('adm'), machine = 'm-1', target: Project = project): Promise<number> {
    const res = await signed('/api/v1/users/register', target, { username, password: PASSWORD, machine_id: machine }).expect(200);
    expect(res.body.code).toBe(0);
    return res.body.data.user_id;
  }
  async function loginUser(username: string, machine = 'm-1', password = PASSWORD) {
    return signed('/api/v1/users/login', project, { username, password, machine_id: machine }).expect(200);
  }
  const heartbeat = (token: string, machine = 'm-1') =>
    t.http().post('/api/v1/users/heartbeat').set('Authorization', `Bearer ${token}`).send({ machine_id: machine });

  it('gets one user as {user_id, username, status, machine_id, created_at, last_login_at}, never the password', async () => {
    const username = unique('Shape');
    const id = await registerUser(username, 'shape-pc');
    const before = await author.get(`${base()}/${id}`).expect(200);
    expect(before.body).toEqual({
      user_id: id,
      username,
      status: 'active',
      machine_id: 'shape-pc',
      created_at: expect.stringMatching(ISO),
      last_login_at: null,
    });
    await loginUser(username, 'shape-pc');
    const after = await author.get(`${base()}/${id}`).expect(200);
    expect(after.body.last_login_at).toMatch(ISO);
    expect(JSON.stringify(after.body)).not.toMatch(/password|argon2/i);
  });

  it('lists users newest first with paging {items, total, page, page_size}', async () => {
    const target = await author.createProject();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await registerUser(unique(`list${i}`), 'm', target));
    const page1 = await author.get(`${base(target)}?page=1&page_size=2`).expect(200);
    expect(page1.body).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(page1.body.items.map((u: { user_id: number }) => u.user_id)).toEqual([ids[2], ids[1]]);
    const page2 = await author.get(`${base(target)}?page=2&page_size=2`).expect(200);
    expect(page2.body.items.map((u: { user_id: number }) => u.user_id)).toEqual([ids[0]]);
  });

  it('searches by username substring ignoring case, treating % and _ literally, and filters by status', async () => {
    const target = await author.createProject();
    const alice = await registerUser('Alice_Smith', 'm', target);
    const alex = await registerUser('alexsmith', 'm', target);
    await registerUser('bob.jones', 'm', target);
    const search = async (query: string) =>
      ((await author.get(`${base(target)}?${query}`).expect(200)).body.items as Array<{ user_id: number }>)
        .map((u) => u.user_id)
        .sort();
    expect(await search('q=SMITH')).toEqual([alice, alex].sort());
    expect(await search('q=e_s')).toEqual([alice]);
    expect(await search('q=%25')).toEqual([]);
    await author.patch(`${base(target)}/${alex}`, { status: 'banned' }).expect(200);
    expect(await search('status=banned')).toEqual([alex]);
    expect(await search('status=active&q=smith')).toEqual([alice]);
  });

  it('refuses bad list filters with 400 naming the field', async () => {
    expectAdminError(await author.get(`${base()}?status=gone`), 400, BAD_REQUEST, 'status');
    expectAdminError(await author.get(`${base()}?page_size=1000`), 400, BAD_REQUEST, 'page_size');
    expectAdminError(await author.get(`${base()}?q=${'x'.repeat(33)}`), 400, BAD_REQUEST, 'q');
  });

  it("bans and unbans; the ban ends the user's sessions", async () => {
    const username = unique('ban');
    const id = await registerUser(username);
    const token = (await loginUser(username)).body.data.session_token;
    const banned = await author.patch(`${base()}/${id}`, { status: 'banned' }).expect(200);
    expect(banned.body.status).toBe('banned');
    expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
    expect((await author.patch(`${base()}/${id}`, { status: 'active' }).expect(200)).body.status).toBe('active');
    expect((await loginUser(username)).body.code).toBe(0);
  });

  it('resets the password: the old one stops working, the new one works, sessions end', async () => {
    const username = unique('reset');
    const id = await registerUser(username);
    const token = (await loginUser(username)).body.data.session_token;
    const res = await author.patch(`${base()}/${id}`, { password: 'new-password-9' }).expect(200);
    expect(JSON.stringify(res.body)).not.toContain('new-password-9');
    expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
    expect((await loginUser(username)).body.code).toBe(30002);
    expect((await loginUser(username, 'm-1', 'new-password-9')).body.code).toBe(0);
  });

  it('unbinds the machine with machine_id: null, ending the sessions on it', async () => {
    const username = unique('unbind');
    const id = await registerUser(username, 'bound-pc');
    const token = (await loginUser(username, 'bound-pc')).body.data.session_token;
    const res = await author.patch(`${base()}/${id}`, { machine_id: null }).expect(200);
    expect(res.body.machine_id).toBeNull();
    expectStandardFailure(await heartbeat(token, 'bound-pc'), 401, CODES.SESSION_INVALID);
  });

  it('forces a user offline through POST /projects/:id/sessions/revoke {user_id}', async () => {
    const username = unique('offline');
    const id = await registerUser(username);
    const token = (await loginUser(username)).body.data.session_token;
    expect((await heartbeat(token)).body.code).toBe(0);
    await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { user_id: id }).expect(200, { revoked: 1 });
    expectStandardFailure(await heartbeat(token), 401, CODES.SESSION_INVALID);
    // The account itself is untouched: a new login works.
    expect((await loginUser(username)).body.code).toBe(0);
  });

  it('refuses bad PATCH fields with 400 naming the field', async () => {
    const id = await registerUser();
    expectAdminError(await author.patch(`${base()}/${id}`, { status: 'deleted' }), 400, BAD_REQUEST, 'status');
    expectAdminError(await author.patch(`${base()}/${id}`, { status: null }), 400, BAD_REQUEST, 'status');
    expectAdminError(await author.patch(`${base()}/${id}`, { password: '12345' }), 400, BAD_REQUEST, 'password');
    expectAdminError(await author.patch(`${base()}/${id}`, { password: 'x'.repeat(129) }), 400, BAD_REQUEST, 'password');
    expectAdminError(await author.patch(`${base()}/${id}`, { machine_id: 'some-pc' }), 400, BAD_REQUEST, 'machine_id');
    expectAdminError(await author.patch(`${base()}/${id}`, { username: 'rename' }), 400, BAD_REQUEST, 'username');
  });

  it('answers 404 for a user of another project, an unknown id and a non-integer id', async () => {
    const other = await author.createProject();
    const id = await registerUser(unique('elsewhere'), 'm', other);
    expectAdminError(await author.get(`${base()}/${id}`), 404, APP_USER_NOT_FOUND);
    expectAdminError(await author.patch(`${base()}/${id}`, { status: 'banned' }), 404, APP_USER_NOT_FOUND);
    expectAdminError(await author.get(`${base()}/2147483647`), 404, APP_USER_NOT_FOUND);
    expectAdminError(await author.get(`${base()}/abc`), 404, APP_USER_NOT_FOUND);
    expect((await author.get(`${base(other)}/${id}`).expect(200)).body.status).toBe('active');
  });

  it("hides another author's project users (404) and lets the platform admin see them", async () => {
    const stranger = (await admin.createAuthor()).client;
    const id = await registerUser();
    expectAdminError(await stranger.get(base()), 404, PROJECT_NOT_FOUND);
    expectAdminError(await stranger.get(`${base()}/${id}`), 404, PROJECT_NOT_FOUND);
    expectAdminError(await stranger.patch(`${base()}/${id}`, { status: 'banned' }), 404, PROJECT_NOT_FOUND);
    expect((await admin.get(`${base()}/${id}`).expect(200)).body.user_id).toBe(id);
    await t.http().get(base()).expect(401);
  });
});
