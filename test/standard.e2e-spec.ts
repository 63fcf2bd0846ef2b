import { AdminClient } from './support/admin-client';
import { insertCard } from './support/cards';
import { signedPost } from './support/signing';
import { startTestApp, TestApp } from './support/test-app';

describe('standard family: V3 and SDK card login, card heartbeat (e2e)', () => {
  let t: TestApp;
  let author: AdminClient;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
  });
  afterAll(() => t.close());

  const v3 = (body: Record<string, string>, options = {}) => signedPost(t, '/api/legacy/v3/cards/login', body, 'form', project.api_secret, options);
  const sdk = (body: Record<string, string>, options = {}) => signedPost(t, '/api/v1/cards/login', body, 'json', project.api_secret, options);

  it('logs a card in over V3 with the standard success body and no session', async () => {
    const card = await insertCard(t, project.id);
    const res = await v3({ app: project.program_id, kami: card.code, imei: 'dev-1' }).expect(200);
    expect(res.body).toEqual({
      code: 0,
      success: true,
      msg: expect.any(String),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      statecode: 'active',
      data: { id: card.id, code: card.code, machine_code: 'dev-1', expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) },
      request_id: res.headers['x-request-id'],
    });
    const hb = await t.http().post('/api/v1/cards/heartbeat').set('Authorization', `Bearer ${res.body.token}`).send({ machine_id: 'dev-1' }).expect(401);
    expect(hb.body).toMatchObject({ code: 30101, success: false });
  });

  it('rejects a request without app with APP_REQUIRED before looking at the signature', async () => {
    const res = await t.http().post('/api/legacy/v3/cards/login').type('form').send('kami=x&imei=y').expect(400);
    expect(res.body).toMatchObject({ code: 10004, success: false });
  });

  it('opens a card session over the SDK and keeps it alive with heartbeats until forced offline', async () => {
    const card = await insertCard(t, project.id);
    const login = await sdk({ app: project.program_id, card_key: card.code, machine_id: 'sdk-dev' }).expect(200);
    expect(login.body).toMatchObject({ code: 0, success: true, data: { id: card.id, session_token: expect.any(String), session_expires_at: expect.any(String) } });
    const token = login.body.data.session_token;
    const beat = await t.http().post('/api/v1/cards/heartbeat').set('Authorization', `Bearer ${token}`).send({ machine_id: 'sdk-dev' }).expect(200);
    expect(beat.body).toMatchObject({ code: 0, success: true, data: { card_id: card.id, session_expires_at: expect.any(String), server_time: expect.any(Number) } });
    const other = await t.http().post('/api/v1/cards/heartbeat').set('Authorization', `Bearer ${token}`).send({ machine_id: 'elsewhere' }).expect(200);
    expect(other.body.code).toBe(30004);
    await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: card.id }).expect(200, { revoked: 1 });
    const after = await t.http().post('/api/v1/cards/heartbeat').set('Authorization', `Bearer ${token}`).send({ machine_id: 'sdk-dev' }).expect(401);
    expect(after.body.code).toBe(30101);
  });
});
