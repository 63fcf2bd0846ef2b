import { randomBytes } from 'node:crypto';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { withPlatformInterface } from '../../support/platform-state';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, CODES, expectStandardFailure, sdkLogin, V3_LOGIN, v3Login } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Two instances of the service sharing one PostgreSQL and one Redis (decisions §3, §5, §7, §12):
 * sessions, forced offline, nonces and the card_login quota hold across instances. Needs
 * DATABASE_URL and REDIS_URL; without them there is no shared state to test.
 */
const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const describeShared = shared ? describe : describe.skip;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describeShared('standard family across two instances sharing PostgreSQL and Redis (e2e)', () => {
  let one: TestApp;
  let two: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;

  /** Request i goes to instance one when even, to instance two when odd. */
  const instance = (i: number) => (i % 2 === 0 ? one : two);
  const freshNonce = () => `mi-${randomBytes(10).toString('hex')}`;

  async function sdkSession(on: TestApp, target: Project, machine: string) {
    const card = await insertCard(on, target.id);
    const res = await sdkLogin(on, target.api_secret, {
      app: target.program_id,
      card_key: card.code,
      machine_id: machine,
    }).expect(200);
    expect(res.body.code).toBe(0);
    return { card, token: res.body.data.session_token as string };
  }

  beforeAll(async () => {
    one = await startTestApp();
    two = await startTestApp({}, { shareWith: one });
    admin = await AdminClient.asPlatformAdmin(one);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  it('keeps a session opened on instance A alive with heartbeats on instance B', async () => {
    const { card, token } = await sdkSession(one, project, 'mi-dev');
    const beat = await cardHeartbeat(two, token, 'mi-dev').expect(200);
    expect(beat.body).toMatchObject({ code: 0, success: true, data: { card_id: card.id } });
    expect((await cardHeartbeat(one, token, 'mi-dev')).body.code).toBe(0);
  });

  it('sees a forced offline on instance A at the next heartbeat on instance B (card, then whole project)', async () => {
    const target = await author.createProject();
    const a = await sdkSession(one, target, 'off-a');
    const b = await sdkSession(two, target, 'off-b');
    expect((await cardHeartbeat(two, a.token, 'off-a')).body.code).toBe(0);
    // The admin client talks to instance A.
    await author.post(`/admin/v1/projects/${target.id}/sessions/revoke`, { card_id: a.card.id }).expect(200, { revoked: 1 });
    expectStandardFailure(await cardHeartbeat(two, a.token, 'off-a'), 401, CODES.SESSION_INVALID);
    expect((await cardHeartbeat(two, b.token, 'off-b')).body.code).toBe(0);
    await author.post(`/admin/v1/projects/${target.id}/sessions/revoke`, {}).expect(200, { revoked: 1 });
    expectStandardFailure(await cardHeartbeat(two, b.token, 'off-b'), 401, CODES.SESSION_INVALID);
    expectStandardFailure(await cardHeartbeat(one, b.token, 'off-b'), 401, CODES.SESSION_INVALID);
  });

  it('sees a card banned on instance A at the next heartbeat on instance B', async () => {
    const { card, token } = await sdkSession(two, project, 'ban-dev');
    await author.patch(`/admin/v1/projects/${project.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
    expectStandardFailure(await cardHeartbeat(two, token, 'ban-dev'), 401, CODES.SESSION_INVALID);
  });

  it('answers a nonce used on instance A with 409 NONCE_REPLAYED on instance B (V3 and SDK)', async () => {
    const nonce = freshNonce();
    const first = await insertCard(one, project.id);
    await v3Login(one, project.api_secret, { app: project.program_id, kami: first.code, imei: 'n' }, { nonce }).expect(200);
    const second = await insertCard(one, project.id);
    const replay = await v3Login(two, project.api_secret, { app: project.program_id, kami: second.code, imei: 'n' }, { nonce });
    expectStandardFailure(replay, 409, CODES.NONCE_REPLAYED);
    const sdkReplay = await sdkLogin(
      two,
      project.api_secret,
      { app: project.program_id, card_key: second.code, machine_id: 'n' },
      { nonce },
    );
    expectStandardFailure(sdkReplay, 409, CODES.NONCE_REPLAYED);
    expect((await cardRepos(two).cards.findOneByOrFail({ id: second.id })).useCount).toBe(0);
  });

  it('admits exactly 1 of 20 concurrent V3 requests with one nonce split across both instances', async () => {
    const nonce = freshNonce();
    const card = await insertCard(one, project.id);
    const body = { app: project.program_id, kami: card.code, imei: 'race' };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => v3Login(instance(i), project.api_secret, body, { nonce })),
    );
    expect(results.filter((r) => r.status === 200 && r.body.code === 0)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    expect((await cardRepos(one).cards.findOneByOrFail({ id: card.id })).useCount).toBe(1);
  });

  it('counts one card_login quota across instances: N of 2N concurrent mixed logins on both instances', async () => {
    const N = 4;
    const target = await author.createProject();
    await admin.put(`/admin/v1/projects/${target.id}/interfaces/card_login`, { authorized: true, daily_quota: N }).expect(200);
    const cards = await Promise.all(Array.from({ length: 2 * N }, () => insertCard(one, target.id)));
    const results = await Promise.all(
      cards.map((card, i) =>
        i % 4 < 2
          ? v3Login(instance(i), target.api_secret, { app: target.program_id, kami: card.code, imei: `q-${i}` })
          : sdkLogin(instance(i), target.api_secret, { app: target.program_id, card_key: card.code, machine_id: `q-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200 && r.body.code === 0)).toHaveLength(N);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(N);
    for (const res of refused) expectStandardFailure(res, 429, CODES.QUOTA_EXCEEDED);
  });

  it('refuses the old api_secret on instance B right after a rotation through instance A', async () => {
    const target = await author.createProject();
    const rotated = await author.post(`/admin/v1/projects/${target.id}/secrets/api_secret/rotate`).expect(200);
    const card = await insertCard(one, target.id);
    const body = { app: target.program_id, kami: card.code, imei: 'rot' };
    expectStandardFailure(await v3Login(two, target.api_secret, body), 401, CODES.SIGNATURE_INVALID);
    expect((await v3Login(two, rotated.body.value, body).expect(200)).body.code).toBe(0);
  });

  it('sees card_login disabled platform-wide through instance A on instance B', async () => {
    const card = await insertCard(one, project.id);
    const res = await withPlatformInterface(admin, 'card_login', false, async () =>
      signedPost(two, V3_LOGIN, { app: project.program_id, kami: card.code, imei: 'plat' }, 'form', project.api_secret),
    );
    expectStandardFailure(res, 403, CODES.INTERFACE_DISABLED);
    expect(
      (await v3Login(two, project.api_secret, { app: project.program_id, kami: card.code, imei: 'plat' }).expect(200)).body.code,
    ).toBe(0);
  });
});
