import { Client, ErrorCode } from '../../../sdk/src';
import { hashToken } from '../../../src/core/crypto/tokens';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, PROJECT_NOT_FOUND } from '../../support/admin-errors';
import { insertCard } from '../../support/cards';
import { sessionRepo } from '../../support/standard';
import { unique } from '../../support/test-app';
import { buildWorld, Project, World } from '../../support/world';

/**
 * The author's view of live SDK sessions (GET /admin/v1/projects/:id/sessions), forced offline of a
 * whole project, and the Overview's live figures (GET /admin/v1/projects/:id/usage). Sessions are
 * opened by the official client over real HTTP, as a program would.
 */
describe('live sessions and usage for the author (e2e)', () => {
  let world: World;
  let author: AdminClient;
  let baseUrl: string;

  const clientFor = (target: Project) =>
    new Client({
      baseUrl,
      programId: target.program_id,
      apiSecret: target.api_secret,
      legacySecret: target.legacy_secret,
      retryDelayMs: 10,
    });

  /** An SDK card login; answers the client holding the session and the card. */
  async function cardSession(target: Project, machine = unique('pc')) {
    const card = await insertCard(world.t, target.id);
    const client = clientFor(target);
    expect(await client.cardLogin({ cardKey: card.code, machineId: machine })).toMatchObject({ success: true });
    return { client, card, machine, token: client.session!.token };
  }

  /** An SDK program-user registration and login; answers the client holding the session and the user. */
  async function userSession(target: Project, machine = unique('pc')) {
    const client = clientFor(target);
    const username = unique('u');
    const registered = await client.userRegister({ username, password: 'pass-word-1', machineId: machine });
    expect(registered).toMatchObject({ success: true });
    expect(await client.userLogin({ username, password: 'pass-word-1', machineId: machine })).toMatchObject({ success: true });
    return { client, userId: registered.data!.user_id, username, machine, token: client.session!.token };
  }

  const list = (target: Project, query: Record<string, string | number> = {}, as = author) =>
    as.get(`/admin/v1/projects/${target.id}/sessions`).query(query);
  const ids = async (target: Project, query: Record<string, string | number> = {}) =>
    (await list(target, query).expect(200)).body.items.map((row: { id: number }) => row.id);
  const idOf = async (token: string) => Number((await sessionRepo(world.t).findOneByOrFail({ tokenHash: hashToken(token) })).id);

  beforeAll(async () => {
    world = await buildWorld();
    author = world.author;
    baseUrl = await world.t.baseUrl();
  });
  afterAll(() => world.close());

  describe('GET /admin/v1/projects/:id/sessions', () => {
    let project: Project;
    let card: Awaited<ReturnType<typeof cardSession>>;
    let user: Awaited<ReturnType<typeof userSession>>;

    beforeAll(async () => {
      project = await author.createProject();
      card = await cardSession(project, 'card-pc');
      user = await userSession(project, 'user-pc');
    });

    it('lists a card login and a user login, newest first, with who and where, and never a token', async () => {
      const res = await list(project).expect(200);
      expect(res.body).toMatchObject({ total: 2, page: 1, page_size: 20 });
      const [first, second] = res.body.items;
      expect(first).toEqual({
        id: await idOf(user.token),
        type: 'app_user',
        card_id: null,
        card_code: null,
        user_id: user.userId,
        username: user.username,
        machine_id: 'user-pc',
        created_at: expect.any(String),
        last_seen_at: expect.any(String),
        expires_at: expect.any(String),
        address: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/),
        last_heartbeat_at: null,
      });
      expect(second).toMatchObject({
        id: await idOf(card.token),
        type: 'card',
        card_id: card.card.id,
        card_code: card.card.code,
        user_id: null,
        username: null,
        machine_id: 'card-pc',
      });
      expect(Date.parse(second.expires_at)).toBeGreaterThan(Date.now());
      const text = JSON.stringify(res.body);
      for (const token of [card.token, user.token]) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(hashToken(token));
      }
    });

    it('records a heartbeat at most once a minute: its time and address show, so a client that stopped beating shows it', async () => {
      const project = await author.createProject();
      const beating = await cardSession(project);
      const row = () => sessionRepo(world.t).findOneByOrFail({ tokenHash: hashToken(beating.token) });
      const shown = async () =>
        (await list(project).expect(200)).body.items[0] as { last_heartbeat_at: string | null; address: string };

      // Within a minute of the login a heartbeat writes nothing: none recorded yet.
      expect(await beating.client.cardHeartbeat()).toMatchObject({ success: true });
      expect((await row()).lastHeartbeatAt).toBeNull();
      expect((await shown()).last_heartbeat_at).toBeNull();

      // The login (or the last record) more than a minute ago: the next heartbeat is recorded, with its address.
      await sessionRepo(world.t).update(
        { tokenHash: hashToken(beating.token) },
        { lastSeenAt: new Date(Date.now() - 61_000), address: '' },
      );
      const before = Date.now();
      expect(await beating.client.cardHeartbeat()).toMatchObject({ success: true });
      const recorded = await shown();
      expect(Date.parse(recorded.last_heartbeat_at!)).toBeGreaterThanOrEqual(before - 1000);
      expect(recorded.address).toMatch(/127\.0\.0\.1|::1/);

      // A heartbeat right after a record writes nothing: the recorded time stays.
      expect(await beating.client.cardHeartbeat()).toMatchObject({ success: true });
      expect((await shown()).last_heartbeat_at).toBe(recorded.last_heartbeat_at);
    });

    it('filters by type, card, user and device', async () => {
      const [cardId, userId] = [await idOf(card.token), await idOf(user.token)];
      expect(await ids(project, { type: 'card' })).toEqual([cardId]);
      expect(await ids(project, { type: 'app_user' })).toEqual([userId]);
      expect(await ids(project, { card_id: card.card.id })).toEqual([cardId]);
      expect(await ids(project, { user_id: user.userId })).toEqual([userId]);
      expect(await ids(project, { machine_id: 'card-pc' })).toEqual([cardId]);
      expect(await ids(project, { machine_id: 'card-pc', type: 'app_user' })).toEqual([]);
    });

    it('pages like the other admin lists', async () => {
      const res = await list(project, { page: 2, page_size: 1 }).expect(200);
      expect(res.body).toMatchObject({ total: 2, page: 2, page_size: 1, items: [{ id: await idOf(card.token) }] });
    });

    it('refuses a bad filter with 400 naming it', async () => {
      expectAdminError(await list(project, { type: 'console' }), 400, BAD_REQUEST, 'type');
      expectAdminError(await list(project, { card_id: 'x' }), 400, BAD_REQUEST, 'card_id');
      expectAdminError(await list(project, { page_size: 101 }), 400, BAD_REQUEST, 'page_size');
    });

    it("answers another author's project with 404, and the platform admin sees it", async () => {
      const stranger = (await world.admin.createAuthor()).client;
      expectAdminError(await list(project, {}, stranger), 404, PROJECT_NOT_FOUND);
      expect((await list(project, {}, world.admin).expect(200)).body.total).toBe(2);
    });
  });

  describe('a session leaves the list when it ends', () => {
    it('after forced offline of its card: gone, and the next heartbeat is refused', async () => {
      const project = await author.createProject();
      const kept = await cardSession(project);
      const ended = await cardSession(project);
      await author
        .post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: ended.card.id })
        .expect(200, { revoked: 1 });
      expect(await ids(project)).toEqual([await idOf(kept.token)]);
      expect(await ended.client.cardHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });
      expect(await kept.client.cardHeartbeat()).toMatchObject({ success: true });
    });

    it('after forced offline of its user', async () => {
      const project = await author.createProject();
      const user = await userSession(project);
      await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { user_id: user.userId }).expect(200, { revoked: 1 });
      expect(await ids(project)).toEqual([]);
      expect(await user.client.userHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });
    });

    it('after it expires (and forced offline counts only live sessions)', async () => {
      const project = await author.createProject();
      const { token } = await cardSession(project);
      await sessionRepo(world.t).update({ tokenHash: hashToken(token) }, { expiresAt: new Date(Date.now() - 1000) });
      expect((await list(project).expect(200)).body).toMatchObject({ items: [], total: 0 });
      await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, {}).expect(200, { revoked: 0 });
    });
  });

  it("a deleted project's card and user sessions go with it, and no other project's", async () => {
    const doomed = await author.createProject();
    const kept = await author.createProject();
    const tokens = [(await cardSession(doomed)).token, (await userSession(doomed)).token];
    const keptToken = (await cardSession(kept)).token;
    await author.delete(`/admin/v1/projects/${doomed.id}`).expect(204);
    for (const token of tokens) expect(await sessionRepo(world.t).findOneBy({ tokenHash: hashToken(token) })).toBeNull();
    expect(await sessionRepo(world.t).findOneBy({ tokenHash: hashToken(keptToken) })).not.toBeNull();
  });

  describe('POST /admin/v1/projects/:id/sessions/revoke with {}: the whole project', () => {
    it('ends every card and user session of the project, says how many, and leaves other projects alone', async () => {
      const project = await author.createProject();
      const other = await author.createProject();
      const sessions = [await cardSession(project), await cardSession(project), await userSession(project)];
      const elsewhere = await cardSession(other);
      expect((await list(project).expect(200)).body.total).toBe(3);

      await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, {}).expect(200, { revoked: 3 });

      expect((await list(project).expect(200)).body.total).toBe(0);
      expect(await sessions[0].client.cardHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });
      expect(await sessions[1].client.cardHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });
      expect(await sessions[2].client.userHeartbeat()).toMatchObject({ success: false, code: ErrorCode.SESSION_INVALID });
      expect(await elsewhere.client.cardHeartbeat()).toMatchObject({ success: true });
      expect(await ids(other)).toEqual([await idOf(elsewhere.token)]);
    });
  });

  describe('GET /admin/v1/projects/:id/usage', () => {
    const usage = (target: Project, as = author) => as.get(`/admin/v1/projects/${target.id}/usage`);
    const quotaOf = (body: { interfaces: Array<{ name: string }> }, name: string) =>
      body.interfaces.find((row) => row.name === name);

    it('counts live sessions by type and the calls counted against each daily quota today', async () => {
      const project = await author.createProject();
      await world.admin
        .put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: true, daily_quota: 3 })
        .expect(200);
      const fresh = await usage(project).expect(200);
      expect(fresh.body).toMatchObject({
        day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        time_zone: expect.any(String),
        sessions: { card: 0, app_user: 0 },
      });
      expect(quotaOf(fresh.body, 'card_login')).toEqual({
        name: 'card_login',
        authorized: true,
        platform_enabled: true,
        daily_quota: 3,
        used: 0,
      });
      expect(quotaOf(fresh.body, 'user_login')).toEqual({
        name: 'user_login',
        authorized: true,
        platform_enabled: true,
        daily_quota: null,
        used: null,
      });

      const first = await cardSession(project);
      await cardSession(project);
      await userSession(project);
      const busy = await usage(project).expect(200);
      expect(busy.body.sessions).toEqual({ card: 2, app_user: 1 });
      expect(quotaOf(busy.body, 'card_login')).toMatchObject({ daily_quota: 3, used: 2 });

      // The quota check reads the same counter: one login left, then refused, and a refusal counts nothing.
      await cardSession(project);
      const refused = await clientFor(project).cardLogin({ cardKey: first.card.code, machineId: first.machine });
      expect(refused).toMatchObject({ success: false, code: ErrorCode.QUOTA_EXCEEDED });
      expect(quotaOf((await usage(project).expect(200)).body, 'card_login')).toMatchObject({ daily_quota: 3, used: 3 });

      await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, {}).expect(200, { revoked: 4 });
      expect((await usage(project).expect(200)).body.sessions).toEqual({ card: 0, app_user: 0 });
    });

    it("answers another author's project with 404", async () => {
      const project = await author.createProject();
      const stranger = (await world.admin.createAuthor()).client;
      expectAdminError(await usage(project, stranger), 404, PROJECT_NOT_FOUND);
    });
  });
});
