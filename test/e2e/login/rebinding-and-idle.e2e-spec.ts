import { DataSource } from 'typeorm';
import { AppConfig } from '../../../src/config/app-config';
import { ErrorCode } from '../../../src/core/errors/error-code';
import { formatIsoTime } from '../../../src/common/time';
import { AdminClient } from '../../support/admin-client';
import { cardRepos } from '../../support/cards';
import { expectLegacyFailure, md5Signed } from '../../support/legacy';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, expectStandardFailure, sdkLogin, wallClock } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * Rebinding rules and idle devices (decisions §21) through the HTTP stack: the cooldown and the
 * 30-day maximum of the holder's unbinds on every route that unbinds (SDK, legacy, aggregate,
 * portal), exact under concurrency; and a device silent past the project's window giving its slot
 * to a new device, exactly once however many race for it. With DATABASE_URL and REDIS_URL the races
 * run on two instances sharing them.
 */
describe('rebinding rules and idle devices (e2e)', () => {
  let one: TestApp;
  let two: TestApp;
  let author: AdminClient;
  let timeZone: string;
  const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  /** Request i goes to instance one when even, to instance two when odd (the same app without shared stores). */
  const instance = (i: number) => (i % 2 === 0 ? one : two);

  beforeAll(async () => {
    one = await startTestApp();
    two = shared ? await startTestApp({}, { shareWith: one }) : one;
    author = (await (await AdminClient.asPlatformAdmin(one)).createAuthor()).client;
    timeZone = one.app.get(AppConfig).APP_TIMEZONE;
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  const login = (t: TestApp, p: Project, cardKey: string, machine: string) =>
    sdkLogin(t, p.api_secret, { app: p.program_id, card_key: cardKey, machine_id: machine });
  const sdkUnbind = (t: TestApp, p: Project, cardKey: string, machine: string) =>
    signedPost(t, '/api/v1/cards/unbind', { app: p.program_id, card_key: cardKey, machine_id: machine }, 'json', p.api_secret);
  const legacyUnbind = (t: TestApp, p: Project, kami: string, imei: string) =>
    t.http().post('/api/kmunmachine').type('form').send({ app: p.program_id, kami, imei });
  const aggregateUnbind = (t: TestApp, p: Project, kami: string, imei: string) =>
    t
      .http()
      .post('/api/app')
      .type('form')
      .send(md5Signed({ app: p.program_id, api: 'card_unbind', kami, imei }, p.legacy_secret));
  const portal = (t: TestApp, path: string, body: object) => t.http().post(`/api/v1/portal/cards/${path}`).send(body);
  const portalUnbind = (t: TestApp, p: Project, cardKey: string, machine: string) =>
    portal(t, 'unbind', { program_id: p.program_id, card_key: cardKey, machine_id: machine });

  async function cardWithDevices(
    p: Project,
    devices: string[],
    deviceLimit = devices.length,
  ): Promise<{ id: number; code: string; sessions: string[] }> {
    const res = await author
      .post(`/admin/v1/projects/${p.id}/cards`, { count: 1, duration_seconds: 86_400, device_limit: deviceLimit })
      .expect(201);
    const card = res.body.items[0];
    const sessions: string[] = [];
    for (const machine of devices) {
      const answer = await login(one, p, card.code, machine).expect(200);
      expect(answer.body.code).toBe(0);
      sessions.push(answer.body.data.session_token);
    }
    return { ...card, sessions };
  }
  const boundDevices = async (cardId: number) =>
    (await cardRepos(one).devices.find({ where: { cardId }, order: { machineCode: 'ASC' } })).map((d) => d.machineCode);
  const sql = (text: string, params: unknown[]) => cardRepos(one).devices.query(text, params);
  const unbindTimes = async (cardId: number): Promise<Date[]> =>
    (await sql('SELECT unbound_at FROM card_unbinds WHERE card_id = $1 ORDER BY unbound_at', [cardId])).map(
      (r: { unbound_at: Date }) => new Date(r.unbound_at),
    );
  /** Moves every recorded unbind of the card back by `ms`, as if that time had passed. */
  const ageUnbinds = (cardId: number, ms: number) =>
    sql(`UPDATE card_unbinds SET unbound_at = unbound_at - $2 * interval '1 millisecond' WHERE card_id = $1`, [cardId, ms]);
  /** Makes a device's last login or heartbeat `ms` old. */
  const silence = (cardId: number, machine: string, ms: number) =>
    cardRepos(one).devices.update({ cardId, machineCode: machine }, { lastSeenAt: new Date(Date.now() - ms) });

  describe('rebinding rules', () => {
    it('refuses a second unbind inside the cooldown with retry_at on the SDK, legacy, aggregate and portal routes, and grants it after', async () => {
      const p = await author.createProject({ device_limit: 5, unbind_cooldown_seconds: 3600 });
      const card = await cardWithDevices(p, ['dev-a', 'dev-b', 'dev-c']);
      expect((await sdkUnbind(one, p, card.code, 'dev-a').expect(200)).body).toMatchObject({
        code: 1,
        data: { unbind_count: 1 },
      });
      const [first] = await unbindTimes(card.id);
      const retryAt = wallClock(new Date(first.getTime() + 3600_000), timeZone);
      const retryAtIso = formatIsoTime(new Date(first.getTime() + 3600_000), timeZone);

      const sdk = await sdkUnbind(two, p, card.code, 'dev-b');
      expectStandardFailure(sdk, 200, ErrorCode.UNBIND_REFUSED);
      expect(sdk.body.data).toEqual({ reason: 'cooldown', retry_at: retryAt, retry_at_iso: retryAtIso });
      const legacy = await legacyUnbind(one, p, card.code, 'dev-b');
      expectLegacyFailure(legacy, 200, ErrorCode.UNBIND_REFUSED);
      expect(legacy.body.data).toEqual({ reason: 'cooldown', retry_at: retryAt, retry_at_iso: retryAtIso });
      const aggregate = await aggregateUnbind(one, p, card.code, 'dev-b');
      expectLegacyFailure(aggregate, 200, ErrorCode.UNBIND_REFUSED);
      expect(aggregate.body.data).toEqual({ reason: 'cooldown', retry_at: retryAt, retry_at_iso: retryAtIso });
      const viaPortal = await portalUnbind(one, p, card.code, 'dev-c');
      expectStandardFailure(viaPortal, 200, ErrorCode.UNBIND_REFUSED);
      expect(viaPortal.body.data).toEqual({ reason: 'cooldown', retry_at: retryAt, retry_at_iso: retryAtIso });

      // What the portal shows before the holder confirms.
      const info = await portal(one, 'info', { program_id: p.program_id, card_key: card.code }).expect(200);
      expect(info.body.data.unbind).toEqual({
        enabled: true,
        deduct_seconds: 0,
        remaining: null,
        cooldown_seconds: 3600,
        max_per_30_days: null,
        used_30_days: 1,
        refused_reason: 'cooldown',
        next_unbind_at: retryAt,
        next_unbind_at_iso: retryAtIso,
      });
      expect(await boundDevices(card.id)).toEqual(['dev-b', 'dev-c']);
      expect((await cardRepos(one).cards.findOneByOrFail({ id: card.id })).unbindCount).toBe(1);

      // A device that is not bound is told so, not told to wait.
      expect((await sdkUnbind(one, p, card.code, 'dev-zz')).body.data).toEqual({
        reason: 'not_bound',
        retry_at: null,
        retry_at_iso: null,
      });

      await ageUnbinds(card.id, 3600_000);
      expect((await portal(one, 'info', { program_id: p.program_id, card_key: card.code })).body.data.unbind).toMatchObject({
        refused_reason: null,
        next_unbind_at: null,
      });
      expect((await portalUnbind(one, p, card.code, 'dev-b').expect(200)).body).toMatchObject({
        code: 1,
        data: { machine_code: 'dev-b', unbind_count: 2 },
      });
      expect(await boundDevices(card.id)).toEqual(['dev-c']);
    });

    it('grants at most unbind_max_per_30_days in any 30 days, then again once the oldest leaves the window', async () => {
      const p = await author.createProject({ device_limit: 5, unbind_max_per_30_days: 2 });
      const card = await cardWithDevices(p, ['m-a', 'm-b', 'm-c']);
      await sdkUnbind(one, p, card.code, 'm-a').expect(200);
      await ageUnbinds(card.id, 10 * 86_400_000);
      await legacyUnbind(one, p, card.code, 'm-b').expect(200);
      const [oldest] = await unbindTimes(card.id);

      const refused = await sdkUnbind(one, p, card.code, 'm-c');
      expectStandardFailure(refused, 200, ErrorCode.UNBIND_REFUSED);
      expect(refused.body.data).toEqual({
        reason: 'limit',
        retry_at: wallClock(new Date(oldest.getTime() + 30 * 86_400_000), timeZone),
        retry_at_iso: formatIsoTime(new Date(oldest.getTime() + 30 * 86_400_000), timeZone),
      });
      const info = await portal(one, 'info', { program_id: p.program_id, card_key: card.code }).expect(200);
      expect(info.body.data.unbind).toMatchObject({
        max_per_30_days: 2,
        used_30_days: 2,
        refused_reason: 'limit',
        next_unbind_at: refused.body.data.retry_at,
      });

      // 20 days on, the first unbind is 30 days old and out of the window.
      await ageUnbinds(card.id, 20 * 86_400_000);
      await sdkUnbind(one, p, card.code, 'm-c').expect(200);
      expect(await boundDevices(card.id)).toEqual([]);
    });

    it('two concurrent unbinds inside the cooldown: one is granted, across routes and instances', async () => {
      const p = await author.createProject({ device_limit: 10, unbind_cooldown_seconds: 600 });
      const machines = Array.from({ length: 8 }, (_, i) => `race-${i}`);
      const card = await cardWithDevices(p, machines);
      const routes = [sdkUnbind, legacyUnbind, portalUnbind, aggregateUnbind];
      const answers = await Promise.all(
        machines.map((machine, i) => routes[i % routes.length](instance(i), p, card.code, machine)),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
      expect(answers.filter((res) => res.body.code === 1)).toHaveLength(1);
      const refused = answers.filter((res) => res.body.code !== 1);
      expect(refused.map((res) => [res.body.code, res.body.data.reason])).toEqual(
        Array(7).fill([ErrorCode.UNBIND_REFUSED, 'cooldown']),
      );
      expect(await boundDevices(card.id)).toHaveLength(7);
      expect(await unbindTimes(card.id)).toHaveLength(1);
      expect((await cardRepos(one).cards.findOneByOrFail({ id: card.id })).unbindCount).toBe(1);
    });

    it("leaves the author's own unbind free of the rules, and does not count it", async () => {
      const p = await author.createProject({ device_limit: 5, unbind_cooldown_seconds: 3600, unbind_max_per_30_days: 1 });
      const card = await cardWithDevices(p, ['au-a', 'au-b', 'au-c']);
      await sdkUnbind(one, p, card.code, 'au-a').expect(200);
      await author.delete(`/admin/v1/projects/${p.id}/cards/${card.id}/devices/au-b`).expect(204);
      expect(await boundDevices(card.id)).toEqual(['au-c']);
      expect(await unbindTimes(card.id)).toHaveLength(1);
    });

    it('keeps the settings in the project, and refuses values out of range with 400', async () => {
      const p = await author.createProject({});
      expect(p).toMatchObject({ unbind_cooldown_seconds: 0, unbind_max_per_30_days: null, device_idle_release_seconds: 0 });
      const set = await author
        .patch(`/admin/v1/projects/${p.id}`, {
          unbind_cooldown_seconds: 86_400,
          unbind_max_per_30_days: 3,
          device_idle_release_seconds: 600,
        })
        .expect(200);
      expect(set.body).toMatchObject({
        unbind_cooldown_seconds: 86_400,
        unbind_max_per_30_days: 3,
        device_idle_release_seconds: 600,
      });
      for (const body of [
        { unbind_cooldown_seconds: -1 },
        { unbind_cooldown_seconds: 30 * 86_400 + 1 },
        { unbind_cooldown_seconds: null },
        { unbind_max_per_30_days: -1 },
        { unbind_max_per_30_days: 1.5 },
        { device_idle_release_seconds: 59 },
        { device_idle_release_seconds: null },
        { device_idle_release_seconds: '600' },
      ]) {
        const res = await author.patch(`/admin/v1/projects/${p.id}`, body);
        expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
          body,
          status: 400,
          code: ErrorCode.BAD_REQUEST,
        });
      }
      await author
        .patch(`/admin/v1/projects/${p.id}`, { unbind_max_per_30_days: null, device_idle_release_seconds: 0 })
        .expect(200);
    });
  });

  /** Resolves once a statement waits for a lock on the card's row (the repeat login behind the taker). */
  const eventuallyWaiting = async (cardId: number) => {
    for (let tries = 0; tries < 100; tries++) {
      const [{ waiting }] = await sql(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%card_devices%' AND $1::int > 0`,
        [cardId],
      );
      if (waiting > 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the repeat login never waited for the card');
  };

  describe('idle devices', () => {
    it('with a 60 s window a new device takes the slot of a device silent for longer; the idle one is unbound, logged and its session ended', async () => {
      const p = await author.createProject({ device_limit: 1, device_idle_release_seconds: 60 });
      // A webhook endpoint subscribed to device.unbound, written directly: the release is announced in its transaction.
      await sql(
        `INSERT INTO webhook_endpoints (project_id, url, events, format) VALUES ($1, 'https://hooks.example.com/x', $2, 'json')`,
        [p.id, ['device.unbound']],
      );
      const card = await cardWithDevices(p, ['old-pc']);
      // Silent, but not for the whole window: the card is full.
      await silence(card.id, 'old-pc', 50_000);
      expectStandardFailure(await login(one, p, card.code, 'new-pc'), 200, ErrorCode.DEVICE_LIMIT_REACHED);

      await silence(card.id, 'old-pc', 61_000);
      const taken = await login(two, p, card.code, 'new-pc').expect(200);
      expect(taken.body.code).toBe(0);
      expect(await boundDevices(card.id)).toEqual(['new-pc']);
      const beat = await cardHeartbeat(one, card.sessions[0], 'old-pc');
      expect(beat.body).toMatchObject({ code: ErrorCode.SESSION_INVALID, data: { ended_by: 'device_unbound' } });
      const released = await cardRepos(one).logs.findBy({ cardId: card.id, interface: 'device_idle_release' });
      expect(released.map((log) => [log.machineCode, log.resultCode, log.requestId])).toEqual([
        ['old-pc', 0, taken.headers['x-request-id']],
      ]);
      const events = await sql(`SELECT type, data FROM webhook_events WHERE project_id = $1`, [p.id]);
      expect(events).toEqual([
        { type: 'device.unbound', data: { card_id: card.id, card_code: card.code, machine_code: 'old-pc', by: 'idle' } },
      ]);
      // The new device is fresh: the old one cannot take the slot back.
      expectStandardFailure(await login(one, p, card.code, 'old-pc'), 200, ErrorCode.DEVICE_LIMIT_REACHED);
      expect((await cardRepos(one).cards.findOneByOrFail({ id: card.id })).unbindCount).toBe(0);
    });

    it('a device that logs in or beats is not idle', async () => {
      const p = await author.createProject({ device_limit: 1, device_idle_release_seconds: 60 });
      const card = await cardWithDevices(p, ['live-pc']);
      await silence(card.id, 'live-pc', 61_000);
      await cardHeartbeat(one, card.sessions[0], 'live-pc').expect(200);
      expectStandardFailure(await login(one, p, card.code, 'other-pc'), 200, ErrorCode.DEVICE_LIMIT_REACHED);
      await silence(card.id, 'live-pc', 61_000);
      expect((await login(one, p, card.code, 'live-pc').expect(200)).body.code).toBe(0);
      expectStandardFailure(await login(one, p, card.code, 'other-pc'), 200, ErrorCode.DEVICE_LIMIT_REACHED);
      expect(await boundDevices(card.id)).toEqual(['live-pc']);
    });

    it('releases nothing while the window is 0 (off)', async () => {
      const p = await author.createProject({ device_limit: 1 });
      const card = await cardWithDevices(p, ['kept-pc']);
      await silence(card.id, 'kept-pc', 365 * 86_400_000);
      expectStandardFailure(await login(one, p, card.code, 'other-pc'), 200, ErrorCode.DEVICE_LIMIT_REACHED);
      expect(await boundDevices(card.id)).toEqual(['kept-pc']);
    });

    (shared ? it : it.skip)(
      "never tells an idle device's repeat login success when its slot is taken while the login waits for the card",
      async () => {
        const p = await author.createProject({ device_limit: 1, device_idle_release_seconds: 60 });
        const card = await cardWithDevices(p, ['idle-pc']);
        await silence(card.id, 'idle-pc', 61_000);
        // A new device's login releasing the idle one and binding itself, held open in its transaction.
        const taker = one.app.get(DataSource).createQueryRunner();
        await taker.connect();
        await taker.startTransaction();
        try {
          await taker.query('SELECT id FROM cards WHERE id = $1 FOR UPDATE', [card.id]);
          await taker.query(`DELETE FROM card_devices WHERE card_id = $1 AND machine_code = 'idle-pc'`, [card.id]);
          await taker.query(`INSERT INTO card_devices (card_id, machine_code, last_seen_at) VALUES ($1, 'new-pc', now())`, [
            card.id,
          ]);
          await taker.query('UPDATE cards SET use_count = use_count + 1, last_login_at = now() WHERE id = $1', [card.id]);
          const again = login(two, p, card.code, 'idle-pc').then((res) => res);
          await eventuallyWaiting(card.id);
          await taker.commitTransaction();
          expectStandardFailure(await again, 200, ErrorCode.DEVICE_LIMIT_REACHED);
        } finally {
          if (taker.isTransactionActive) await taker.rollbackTransaction();
          await taker.release();
        }
        expect(await boundDevices(card.id)).toEqual(['new-pc']);
      },
    );

    it('20 new devices racing for one freed slot bind exactly one, across instances', async () => {
      const p = await author.createProject({ device_limit: 2, device_idle_release_seconds: 60 });
      const card = await cardWithDevices(p, ['idle-pc', 'busy-pc']);
      await silence(card.id, 'idle-pc', 120_000);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(instance(i), p, card.code, `racer-${i}`)));
      expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
      const winners = answers.filter((res) => res.body.code === 0);
      expect(winners).toHaveLength(1);
      expect(answers.filter((res) => res.body.code === ErrorCode.DEVICE_LIMIT_REACHED)).toHaveLength(19);
      const devices = await boundDevices(card.id);
      expect(devices).toHaveLength(2);
      expect(devices).toContain('busy-pc');
      expect(devices).not.toContain('idle-pc');
      expect((await sql('SELECT bound_devices FROM cards WHERE id = $1', [card.id]))[0].bound_devices).toBe(2);
      expect(await cardRepos(one).logs.countBy({ cardId: card.id, interface: 'device_idle_release' })).toBe(1);
    });
  });
});
