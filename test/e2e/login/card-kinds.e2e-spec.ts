import { ErrorCode } from '../../../src/core/errors/error-code';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, expectStandardFailure, sdkLogin, sessionRepo, v3Login } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * Count cards, top-up, seats and the card holder's own calls (decisions §13, §14), through the
 * HTTP stack. With DATABASE_URL and REDIS_URL the races run on two instances sharing them.
 */
describe('card kinds, top-up, seats and self-service (e2e)', () => {
  let one: TestApp;
  let two: TestApp;
  let author: AdminClient;
  let project: Project;
  const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  /** Request i goes to instance one when even, to instance two when odd (the same app without shared stores). */
  const instance = (i: number) => (i % 2 === 0 ? one : two);

  beforeAll(async () => {
    one = await startTestApp();
    two = shared ? await startTestApp({}, { shareWith: one }) : one;
    const admin = await AdminClient.asPlatformAdmin(one);
    author = (await admin.createAuthor()).client;
    project = await author.createProject({ device_limit: 5 });
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  const sdk = (t: TestApp, path: string, body: Record<string, string>, target = project) =>
    signedPost(t, `/api/v1/cards/${path}`, { app: target.program_id, ...body }, 'json', target.api_secret);
  const login = (t: TestApp, cardKey: string, machine: string, target = project) =>
    sdkLogin(t, target.api_secret, { app: target.program_id, card_key: cardKey, machine_id: machine });
  async function createCards(body: object, target = project): Promise<Array<{ id: number; code: string }>> {
    const res = await author
      .post(`/admin/v1/projects/${target.id}/cards`, { count: 1, duration_seconds: 3600, ...body })
      .expect(201);
    return res.body.items;
  }
  const stored = (id: number) => cardRepos(one).cards.findOneByOrFail({ id });

  describe('count cards', () => {
    it('creates count cards with their uses, shown in the card view', async () => {
      const res = await author
        .post(`/admin/v1/projects/${project.id}/cards`, { count: 2, kind: 'count', uses: 10, duration_seconds: 0 })
        .expect(201);
      expect(res.body.items).toHaveLength(2);
      expect(res.body.items[0]).toMatchObject({ kind: 'count', uses_left: 10, status: 'unused', concurrent_limit: null });
    });

    it.each([
      ['an unknown kind', { kind: 'points', uses: 5 }],
      ['a count card without uses', { kind: 'count' }],
      ['negative uses', { kind: 'count', uses: -1 }],
      ['more than 1,000,000 uses', { kind: 'count', uses: 1_000_001 }],
      ['uses on a time card', { uses: 5 }],
    ])('refuses %s with 400 and creates nothing', async (_label, body) => {
      const before = await cardRepos(one).cards.countBy({ projectId: project.id });
      const res = await author.post(`/admin/v1/projects/${project.id}/cards`, { count: 1, duration_seconds: 60, ...body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(ErrorCode.BAD_REQUEST);
      expect(await cardRepos(one).cards.countBy({ projectId: project.id })).toBe(before);
    });

    it('takes one use per successful login of every family and refuses with CARD_NO_USES_LEFT at zero', async () => {
      await openConnectInEveryMode(one, project.id);
      const [card] = await createCards({ kind: 'count', uses: 4, duration_seconds: 0 });
      expect((await login(one, card.code, 'dev-1').expect(200)).body.code).toBe(0);
      expect(
        (await v3Login(one, project.api_secret, { app: project.program_id, kami: card.code, imei: 'dev-1' }).expect(200)).body
          .code,
      ).toBe(0);
      expect(
        (await connectLogin(one, project.program_id, { user_key: card.code, serial: 'dev-1' }).expect(200)).body.status,
      ).toBe(true);
      const legacy = await one
        .http()
        .post('/api/kmlogon')
        .type('form')
        .send({ app: project.program_id, kami: card.code, imei: 'dev-1' })
        .expect(200);
      expect(legacy.body.code).toBe(1);
      expect((await stored(card.id)).usesLeft).toBe(0);
      expectStandardFailure(await login(one, card.code, 'dev-1'), 200, ErrorCode.CARD_NO_USES_LEFT);
      const connect = await connectLogin(one, project.program_id, { user_key: card.code, serial: 'dev-1' }).expect(200);
      expect(connect.body).toMatchObject({ status: false, code: -ErrorCode.CARD_NO_USES_LEFT });
      expect((await stored(card.id)).useCount).toBe(4);
    });

    it('50 concurrent logins on a count card with 10 uses: exactly 10 succeed, uses_left ends at 0, 50 log rows', async () => {
      const [card] = await createCards({ kind: 'count', uses: 10, duration_seconds: 0, device_limit: 50 });
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => login(instance(i), card.code, `dev-${i % 5}`)));
      // A refusal other than the used-up card would be logged at error with its cause: shown with the statuses.
      const faults = [...new Set([one, two])].flatMap((app) => app.logs.filter((line) => line.includes('"level":"error"')));
      expect({ statuses: results.map((res) => res.status), faults }).toEqual({ statuses: Array(50).fill(200), faults: [] });
      const codes = results.map((res) => res.body.code);
      expect(codes.filter((code) => code === 0)).toHaveLength(10);
      expect(codes.filter((code) => code === ErrorCode.CARD_NO_USES_LEFT)).toHaveLength(40);
      expect(await stored(card.id)).toMatchObject({ usesLeft: 0, useCount: 10 });
      expect(await cardRepos(one).logs.countBy({ cardCode: card.code })).toBe(50);
    });
  });

  describe('top-up', () => {
    const topup = (t: TestApp, cardKey: string, topupKey: string) => sdk(t, 'topup', { card_key: cardKey, topup_key: topupKey });

    it('moves an active time card’s expiry by the top-up card’s duration and consumes the top-up card', async () => {
      const [card] = await createCards({ duration_seconds: 3600 });
      const [extra] = await createCards({ duration_seconds: 7200 });
      await login(one, card.code, 'dev-1').expect(200);
      const before = (await stored(card.id)).expiresAt!.getTime();
      const res = await topup(one, card.code, extra.code).expect(200);
      expect(res.body).toMatchObject({ code: 0, success: true, data: { id: card.id, kind: 'time', status: 'active' } });
      expect((await stored(card.id)).expiresAt!.getTime()).toBe(before + 7200_000);
      expect((await stored(extra.id)).status).toBe('consumed');
      // A consumed card is no card: it never logs in, in any family.
      expectStandardFailure(await login(one, extra.code, 'dev-9'), 200, ErrorCode.CARD_INVALID);
    });

    it('gives an unused time card the duration, an expired one from now, and a count card the uses', async () => {
      const [unused, expired] = await createCards({ count: 2, duration_seconds: 60 });
      const [a, b] = await createCards({ count: 2, duration_seconds: 600 });
      await topup(one, unused.code, a.code).expect(200);
      expect((await stored(unused.id)).durationSeconds).toBe(660);
      await login(one, expired.code, 'dev-1').expect(200);
      await cardRepos(one).cards.update({ id: expired.id }, { expiresAt: new Date(Date.now() - 86_400_000) });
      const start = Date.now();
      await topup(one, expired.code, b.code).expect(200);
      const until = (await stored(expired.id)).expiresAt!.getTime();
      expect(until).toBeGreaterThanOrEqual(start + 600_000 - 1000);
      expect(until).toBeLessThanOrEqual(Date.now() + 600_000 + 1000);

      const [counted] = await createCards({ kind: 'count', uses: 3, duration_seconds: 0 });
      const [more] = await createCards({ kind: 'count', uses: 5, duration_seconds: 0 });
      expect((await topup(one, counted.code, more.code).expect(200)).body.data.uses_left).toBe(8);
    });

    it('refuses with TOPUP_REFUSED and changes nothing: itself, a used top-up card, another kind, a banned or permanent target', async () => {
      const [target, permanent] = await createCards({ count: 2, duration_seconds: 3600 });
      await cardRepos(one).cards.update({ id: permanent.id }, { durationSeconds: 0 });
      const [used] = await createCards({ duration_seconds: 60 });
      await login(one, used.code, 'dev-1').expect(200);
      const [count] = await createCards({ kind: 'count', uses: 2, duration_seconds: 0 });
      const [banned] = await createCards({ duration_seconds: 60 });
      await cardRepos(one).cards.update({ id: banned.id }, { status: 'banned' });
      const [fresh] = await createCards({ duration_seconds: 60 });
      for (const [cardKey, topupKey] of [
        [target.code, target.code],
        [target.code, used.code],
        [target.code, count.code],
        [banned.code, fresh.code],
        [permanent.code, fresh.code],
        [target.code, 'NO-SUCH-CARD-KEY'],
      ]) {
        const res = await topup(one, cardKey, topupKey);
        expectStandardFailure(res, 200, ErrorCode.TOPUP_REFUSED);
      }
      expect(await stored(fresh.id)).toMatchObject({ status: 'unused' });
      expect(await stored(target.id)).toMatchObject({ durationSeconds: 3600, status: 'unused' });
    });

    it('20 concurrent top-ups with one top-up card onto 20 cards: exactly one succeeds', async () => {
      const targets = await createCards({ count: 20, duration_seconds: 60 });
      const [extra] = await createCards({ duration_seconds: 600 });
      const results = await Promise.all(targets.map((card, i) => topup(instance(i), card.code, extra.code)));
      expect(results.filter((res) => res.body.code === 0)).toHaveLength(1);
      expect(results.filter((res) => res.body.code === ErrorCode.TOPUP_REFUSED)).toHaveLength(19);
      const durations = await Promise.all(targets.map(async (card) => (await stored(card.id)).durationSeconds));
      expect(durations.filter((d) => d === 660)).toHaveLength(1);
      expect(durations.filter((d) => d === 60)).toHaveLength(19);
    });
  });

  describe('seats', () => {
    /** A card with `devices` bound devices, activated, and no session yet. */
    async function boundCard(devices: number, target: Project) {
      const card = await insertCard(one, target.id, {
        deviceLimit: devices,
        status: 'active',
        activatedAt: new Date(),
        concurrentLimit: 2,
      });
      await cardRepos(one).devices.insert(
        Array.from({ length: devices }, (_, i) => ({ cardId: card.id, machineCode: `seat-${i}`, boundAt: new Date() })),
      );
      return card;
    }
    const liveSessions = (cardId: number) =>
      sessionRepo(one)
        .createQueryBuilder('s')
        .where('s.card_id = :cardId AND s.revoked_at IS NULL AND s.expires_at > now()', { cardId })
        .getCount();

    it('concurrent_limit 2 with `refuse`: of 20 concurrent SDK logins from 20 bound devices exactly 2 succeed, the rest SEATS_FULL', async () => {
      const target = await author.createProject({ seat_policy: 'refuse' });
      const card = await boundCard(20, target);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(instance(i), card.code, `seat-${i}`, target)));
      expect(results.filter((res) => res.body.code === 0)).toHaveLength(2);
      expect(results.filter((res) => res.body.code === ErrorCode.SEATS_FULL)).toHaveLength(18);
      expect(await liveSessions(card.id)).toBe(2);
    });

    it('with `evict_oldest` never more than 2 live, and the evicted sessions answer SESSION_INVALID on every instance', async () => {
      const target = await author.createProject({ seat_policy: 'evict_oldest' });
      const card = await boundCard(20, target);
      // Watch the live count while the logins race: it must never pass the limit.
      let racing = true;
      let most = 0;
      const watcher = (async () => {
        while (racing) most = Math.max(most, await liveSessions(card.id));
      })();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(instance(i), card.code, `seat-${i}`, target)));
      racing = false;
      await watcher;
      expect(results.every((res) => res.body.code === 0)).toBe(true);
      expect(most).toBeLessThanOrEqual(2);
      expect(await liveSessions(card.id)).toBe(2);
      const beats = await Promise.all(
        results.map((res, i) => cardHeartbeat(instance(i + 1), res.body.data.session_token, `seat-${i}`)),
      );
      expect(beats.filter((beat) => beat.body.code === 0)).toHaveLength(2);
      expect(beats.filter((beat) => beat.body.code === ErrorCode.SESSION_INVALID)).toHaveLength(18);
    });

    it('takes the project default at creation and counts seats only on cards that have a limit', async () => {
      const target = await author.createProject({ concurrent_limit: 1 });
      const [limited] = await createCards({}, target);
      expect((await stored(limited.id)).concurrentLimit).toBe(1);
      await login(one, limited.code, 'dev-1', target).expect(200);
      expectStandardFailure(await login(one, limited.code, 'dev-1', target), 200, ErrorCode.SEATS_FULL);
      const [open] = await createCards({ concurrent_limit: null }, target);
      for (let i = 0; i < 3; i += 1) expect((await login(one, open.code, 'dev-1', target)).body.code).toBe(0);
    });
  });

  describe('self-service', () => {
    it('shows the card holder the card, its devices with their last login, and what an unbind costs', async () => {
      const target = await author.createProject({ unbind_deduct_seconds: 600, unbind_max: 3 });
      const [card] = await createCards({ kind: 'count', uses: 5, duration_seconds: 3600, device_limit: 2 }, target);
      await login(one, card.code, 'dev-a', target).expect(200);
      const res = await sdk(one, 'info', { card_key: card.code }, target).expect(200);
      expect(res.body).toMatchObject({
        code: 0,
        success: true,
        data: {
          kind: 'count',
          status: 'active',
          uses_left: 4,
          device_limit: 2,
          concurrent_limit: null,
          unbind: { enabled: true, deduct_seconds: 600, remaining: 3 },
        },
      });
      expect(res.body.data.devices).toEqual([
        {
          machine_code: 'dev-a',
          bound_at: expect.any(String),
          bound_at_iso: expect.any(String),
          last_login_at: expect.any(String),
          last_login_at_iso: expect.any(String),
          last_seen_at: expect.any(String),
          last_seen_at_iso: expect.any(String),
        },
      ]);
      expectStandardFailure(await sdk(one, 'info', { card_key: 'NO-SUCH-CARD' }, target), 200, ErrorCode.CARD_INVALID);
    });

    it('unbinds through the standard family with code 1, the legacy rule (deduction, maximum, switch), and ends that device’s sessions', async () => {
      const target = await author.createProject({ unbind_deduct_seconds: 60, unbind_max: 1 });
      const [card] = await createCards({ duration_seconds: 3600, device_limit: 2 }, target);
      const session = (await login(one, card.code, 'dev-a', target).expect(200)).body.data.session_token;
      const other = (await login(one, card.code, 'dev-b', target).expect(200)).body.data.session_token;
      const expiresBefore = (await stored(card.id)).expiresAt!.getTime();
      const res = await sdk(one, 'unbind', { card_key: card.code, machine_id: 'dev-a' }, target).expect(200);
      expect(res.body).toMatchObject({ code: 1, success: true, data: { id: card.id, machine_code: 'dev-a', unbind_count: 1 } });
      expect((await stored(card.id)).expiresAt!.getTime()).toBe(expiresBefore - 60_000);
      expect((await cardHeartbeat(two, session, 'dev-a')).body.code).toBe(ErrorCode.SESSION_INVALID);
      expect((await cardHeartbeat(two, other, 'dev-b')).body.code).toBe(0);
      // The maximum (1) is reached; then the switch.
      expectStandardFailure(
        await sdk(one, 'unbind', { card_key: card.code, machine_id: 'dev-b' }, target),
        200,
        ErrorCode.UNBIND_REFUSED,
      );
      await author.patch(`/admin/v1/projects/${target.id}`, { unbind_enabled: false, unbind_max: null }).expect(200);
      expectStandardFailure(
        await sdk(one, 'unbind', { card_key: card.code, machine_id: 'dev-b' }, target),
        200,
        ErrorCode.UNBIND_REFUSED,
      );
    });
  });

  describe('card-holder portal calls', () => {
    const portal = (path: string, body: object) => one.http().post(`/api/v1/portal/cards/${path}`).send(body);

    it('shows, unbinds and tops up with the card key alone, on the same rules as the SDK', async () => {
      const [card] = await createCards({ duration_seconds: 3600, device_limit: 2 });
      const [extra] = await createCards({ duration_seconds: 600 });
      await login(one, card.code, 'dev-a').expect(200);
      const info = await portal('info', { program_id: project.program_id, card_key: card.code }).expect(200);
      expect(info.body).toMatchObject({
        code: 0,
        success: true,
        data: { status: 'active', devices: [{ machine_code: 'dev-a' }] },
      });
      const unbind = await portal('unbind', { program_id: project.program_id, card_key: card.code, machine_id: 'dev-a' }).expect(
        200,
      );
      expect(unbind.body).toMatchObject({ code: 1, success: true, data: { machine_code: 'dev-a', unbind_count: 1 } });
      const topup = await portal('topup', { program_id: project.program_id, card_key: card.code, topup_key: extra.code }).expect(
        200,
      );
      expect(topup.body).toMatchObject({ code: 0, data: { id: card.id, status: 'active' } });
    });

    it('answers CARD_INVALID alike for a wrong key, an unknown program and a program whose portal is off', async () => {
      const [card] = await createCards({});
      const target = await author.createProject({ portal_enabled: false });
      const [elsewhere] = await createCards({}, target);
      for (const body of [
        { program_id: project.program_id, card_key: 'NO-SUCH-CARD-KEY' },
        { program_id: '99999999', card_key: card.code },
        { program_id: target.program_id, card_key: elsewhere.code },
      ]) {
        expectStandardFailure(await portal('info', body), 200, ErrorCode.CARD_INVALID);
      }
      expectStandardFailure(
        await portal('info', { program_id: project.program_id, card_key: 'K'.repeat(129) }),
        400,
        ErrorCode.BAD_REQUEST,
      );
    });
  });
});
