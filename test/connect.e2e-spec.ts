import { AdminClient } from './support/admin-client';
import { cardRepos, insertCard } from './support/cards';
import { startTestApp, TestApp } from './support/test-app';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('Connect card login (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;

  const connect = (body: Record<string, string>, programId = project.program_id, path = 'connect') =>
    t.http().post(`/${path}/${programId}`).type('form').send(body);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
  });
  afterAll(() => t.close());

  it('logs a card in with the exact Connect success body, on both spellings of the path', async () => {
    const card = await insertCard(t, project.id, { durationSeconds: 3600, deviceLimit: 2 });
    for (const path of ['connect', 'conncet']) {
      const res = await connect({ user_key: card.code, serial: 'device-1' }, project.program_id, path).expect(200);
      expect(res.body).toEqual({
        status: true,
        code: 1,
        reason: expect.any(String),
        data: {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          expires_at: expect.stringMatching(TIMESTAMP),
          device_limit: 2,
          server_time: expect.any(Number),
          machine_code: 'device-1',
          announcement: '',
        },
        request_id: res.headers['x-request-id'],
      });
      expect(Math.abs(res.body.data.server_time - Date.now() / 1000)).toBeLessThan(5);
    }
    const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
    expect(stored.status).toBe('active');
    expect(stored.useCount).toBe(2);
    expect(stored.expiresAt!.getTime() - stored.activatedAt!.getTime()).toBe(3600_000);
  });

  it('refuses an unknown card with HTTP 200 and a negative code', async () => {
    const res = await connect({ user_key: 'NO-SUCH-CARD', serial: 'd' }).expect(200);
    expect(res.body).toEqual({ status: false, code: -20001, reason: expect.any(String), request_id: res.headers['x-request-id'] });
  });

  it('binds exactly device_limit devices when 20 new devices race on a 2-device card', async () => {
    const card = await insertCard(t, project.id, { deviceLimit: 2 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => connect({ user_key: card.code, serial: `race-${i}` })));
    expect(results.filter((r) => r.body.status === true)).toHaveLength(2);
    expect(results.filter((r) => r.body.code === -20004)).toHaveLength(18);
    expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(2);
  });

  it('answers exactly one of 20 concurrent requests with one nonce, the rest 409', async () => {
    const card = await insertCard(t, project.id, { deviceLimit: 1 });
    const results = await Promise.all(Array.from({ length: 20 }, () => connect({ user_key: card.code, serial: 'n-dev', nonce: 'nonce-race-1' })));
    expect(results.filter((r) => r.status === 200 && r.body.status === true)).toHaveLength(1);
    const replays = results.filter((r) => r.status === 409);
    expect(replays).toHaveLength(19);
    expect(replays[0].body).toMatchObject({ status: false, code: -10103 });
  });
});
