import { permanentExpiryIso } from '../../../src/common/time';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, sdkLogin, v3Login } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

/** UTC+8 all year: a spec time `YYYY-MM-DD HH:MM:SS` there is that wall time at +08:00. */
const ZONE = 'Asia/Shanghai';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/;

/** The instant a spec time names, read as a wall time of Shanghai. */
const shanghai = (local: string) => Date.parse(`${local.replace(' ', 'T')}+08:00`);

/**
 * docs/protocol.md "Times and zones": every time of a client answer keeps its spec form in
 * APP_TIMEZONE and gains `<name>_iso`, the same instant with the offset, in every family.
 */
describe('client answers: each time with its ISO 8601 sibling (e2e)', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;

  beforeAll(async () => {
    t = await startTestApp({ APP_TIMEZONE: ZONE });
    const author = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
    project = await author.createProject({ device_limit: 3 });
    await openConnectInEveryMode(t, project.id);
  });
  afterAll(() => t.close());

  /** The pair names one instant, with the +08:00 offset, and (when given) that instant is `at` to the second. */
  function expectPair(data: Record<string, unknown>, name: string, at?: Date | null): void {
    const local = data[name] as string;
    const iso = data[`${name}_iso`] as string;
    expect(iso).toMatch(ISO);
    expect(Date.parse(iso)).toBe(shanghai(local));
    if (at) expect(Date.parse(iso)).toBe(Math.floor(at.getTime() / 1000) * 1000);
  }
  const expiryOf = async (id: number) => (await cardRepos(t).cards.findOneByOrFail({ id })).expiresAt;

  it('Connect: data.expires_at and data.expires_at_iso', async () => {
    const card = await insertCard(t, project.id, { durationSeconds: 7200 });
    const res = await connectLogin(t, project.program_id, { user_key: card.code, serial: 'c-1' }).expect(200);
    expect(res.body.status).toBe(true);
    expectPair(res.body.data, 'expires_at', await expiryOf(card.id));
  });

  it('V3: data.expires_at and data.expires_at_iso', async () => {
    const card = await insertCard(t, project.id, { durationSeconds: 7200 });
    const res = await v3Login(t, project.api_secret, { app: project.program_id, kami: card.code, imei: 'v-1' }).expect(200);
    expect(res.body.code).toBe(0);
    expectPair(res.body.data, 'expires_at', await expiryOf(card.id));
  });

  it('SDK: the login, the heartbeat and the card info, each time with its sibling', async () => {
    const card = await insertCard(t, project.id, { durationSeconds: 7200 });
    const res = await sdkLogin(t, project.api_secret, { app: project.program_id, card_key: card.code, machine_id: 's-1' }).expect(
      200,
    );
    expect(res.body.code).toBe(0);
    expectPair(res.body.data, 'expires_at', await expiryOf(card.id));
    expectPair(res.body.data, 'session_expires_at');
    const beat = await cardHeartbeat(t, res.body.data.session_token, 's-1').expect(200);
    expectPair(beat.body.data, 'session_expires_at');

    const info = await signedPost(
      t,
      '/api/v1/cards/info',
      { app: project.program_id, card_key: card.code },
      'json',
      project.api_secret,
    ).expect(200);
    expect(info.body.code).toBe(0);
    expectPair(info.body.data, 'expires_at', await expiryOf(card.id));
    expectPair(info.body.data, 'activated_at');
    const [device] = info.body.data.devices;
    for (const name of ['bound_at', 'last_login_at', 'last_seen_at']) expectPair(device, name);
    expect(info.body.data.unbind).toMatchObject({ next_unbind_at: null, next_unbind_at_iso: null });
  });

  it('legacy: data.expires_at and data.expires_at_iso (its data is an object of named fields)', async () => {
    const card = await insertCard(t, project.id, { durationSeconds: 7200 });
    const res = await t
      .http()
      .post('/api/kmlogon')
      .type('form')
      .send(new URLSearchParams({ app: project.program_id, kami: card.code, imei: 'l-1' }).toString())
      .expect(200);
    expect(res.body.code).toBe(1);
    expectPair(res.body.data, 'expires_at', await expiryOf(card.id));
  });

  it('a permanent card: 9999-12-31 23:59:59 and the same wall time with the zone offset', async () => {
    const card = await insertCard(t, project.id, { durationSeconds: 0 });
    const res = await v3Login(t, project.api_secret, { app: project.program_id, kami: card.code, imei: 'p-1' }).expect(200);
    expect(res.body.data).toMatchObject({ expires_at: '9999-12-31 23:59:59', expires_at_iso: '9999-12-31T23:59:59+08:00' });
    expect(permanentExpiryIso(ZONE)).toBe('9999-12-31T23:59:59+08:00');
  });
});
