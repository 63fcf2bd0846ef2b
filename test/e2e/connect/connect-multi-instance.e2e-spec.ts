import { createHash } from 'node:crypto';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Two instances of the service sharing one PostgreSQL and one Redis (decisions §4, §7, §12): the
 * device limit, the nonce window, quotas and customization hold across instances. Needs
 * DATABASE_URL and REDIS_URL; without them there is no shared state to test.
 */
const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const describeShared = shared ? describe : describe.skip;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describeShared('Connect across two instances sharing PostgreSQL and Redis (e2e)', () => {
  let one: TestApp;
  let two: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;

  /** Request i goes to instance one when even, to instance two when odd. */
  const instance = (i: number) => (i % 2 === 0 ? one : two);

  beforeAll(async () => {
    one = await startTestApp();
    two = await startTestApp({}, { shareWith: one });
    admin = await AdminClient.asPlatformAdmin(one);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    await openConnectInEveryMode(one, project.id);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  it('binds exactly 2 of 20 concurrent new devices on a 2-device card, split across both instances', async () => {
    const card = await insertCard(one, project.id, { deviceLimit: 2 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        connectLogin(instance(i), project.program_id, { user_key: card.code, serial: `multi-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200 && r.body.status === true)).toHaveLength(2);
    expect(results.filter((r) => r.status === 200 && r.body.code === -20004)).toHaveLength(18);
    expect(await cardRepos(two).devices.countBy({ cardId: card.id })).toBe(2);
    expect((await cardRepos(one).cards.findOneByOrFail({ id: card.id })).useCount).toBe(2);
  });

  it('answers exactly 1 of 20 concurrent requests with one nonce, split across both instances; the rest 409', async () => {
    const card = await insertCard(one, project.id, { deviceLimit: 1 });
    const nonce = `multi-nonce-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        connectLogin(instance(i), project.program_id, { user_key: card.code, serial: 'nonce-dev', nonce }),
      ),
    );
    expect(results.filter((r) => r.status !== 409)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200 && r.body.status === true)).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ status: false, code: -10103 });
    expect((await cardRepos(one).cards.findOneByOrFail({ id: card.id })).useCount).toBe(1);
  });

  it('refuses on one instance a nonce first used on the other', async () => {
    const card = await insertCard(one, project.id);
    const nonce = `cross-${Date.now()}`;
    await connectLogin(one, project.program_id, { user_key: card.code, serial: 'x', nonce }).expect(200);
    const replay = await connectLogin(two, project.program_id, { user_key: card.code, serial: 'x', nonce });
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ status: false, code: -10103 });
  });

  it('admits exactly N of 4N concurrent logins under a daily quota of N counted by both instances', async () => {
    const N = 3;
    const limited = await author.createProject();
    await openConnectInEveryMode(one, limited.id);
    await admin.put(`/admin/v1/projects/${limited.id}/interfaces/card_login`, { authorized: true, daily_quota: N }).expect(200);
    const card = await insertCard(one, limited.id, { deviceLimit: 4 * N });
    const results = await Promise.all(
      Array.from({ length: 4 * N }, (_, i) =>
        connectLogin(instance(i), limited.program_id, { user_key: card.code, serial: `q-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200 && r.body.status === true)).toHaveLength(N);
    expect(results.filter((r) => r.status === 429 && r.body.code === -10301)).toHaveLength(3 * N);
  });

  it('applies a customization saved through one instance to answers of the other', async () => {
    const customized = await author.createProject();
    await openConnectInEveryMode(one, customized.id);
    await author
      .put(`/admin/v1/projects/${customized.id}/connect/customization`, {
        field_names: { status: 'ok' },
        token_algorithm: 'md5',
        token_template: '{serial}',
      })
      .expect(200);
    const card = await insertCard(one, customized.id);
    const res = await connectLogin(two, customized.program_id, { user_key: card.code, serial: 'other-instance' }).expect(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.data.token).toBe(createHash('md5').update('other-instance').digest('hex'));
  });
});
