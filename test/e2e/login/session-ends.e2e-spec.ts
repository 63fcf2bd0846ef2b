import { getRepositoryToken } from '@nestjs/typeorm';
import type { Response } from 'supertest';
import { Repository } from 'typeorm';
import { AppUser } from '../../../src/app-users/app-user.entity';
import { AppConfig } from '../../../src/config/app-config';
import { hashToken } from '../../../src/core/crypto/tokens';
import { SessionEnd } from '../../../src/sessions/session-end';
import { cardRepos, insertCard } from '../../support/cards';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, CODES, expectStandardFailure, sdkLogin, sessionRepo, wallClock } from '../../support/standard';
import { unique } from '../../support/test-app';
import { buildWorld, Project, World } from '../../support/world';

/** decisions §18: every way a session ends, told by the next heartbeat as `data: {ended_by, ended_at}`. */
describe('why a session ended (e2e)', () => {
  let world: World;
  let timeZone: string;
  const t = () => world.t;

  beforeAll(async () => {
    world = await buildWorld();
    timeZone = t().app.get(AppConfig).APP_TIMEZONE;
  });
  afterAll(() => world.close());

  /** A card of `target` logged in over the SDK from `machine`: its session token. */
  async function cardSession(target: Project = world.project, machine = unique('pc'), fields = {}) {
    const card = await insertCard(t(), target.id, fields);
    const res = await sdkLogin(t(), target.api_secret, {
      app: target.program_id,
      card_key: card.code,
      machine_id: machine,
    }).expect(200);
    expect(res.body.code).toBe(0);
    return { card, machine, token: res.body.data.session_token as string };
  }

  /** Asserts the heartbeat's refusal says `endedBy`, at `at` (to the second) when given, and is signed by the program. */
  function expectEnded(res: Response, endedBy: SessionEnd, at?: Date): void {
    expectStandardFailure(res, 401, CODES.SESSION_INVALID);
    expect(res.body.data.ended_by).toBe(endedBy);
    if (at) expect(res.body.data.ended_at).toBe(wallClock(at, timeZone));
    // The session's program answers, so a client with pinned keys believes it and stops beating.
    expect(res.headers['x-svc-response-signature']).toEqual(expect.any(String));
  }

  describe('card sessions', () => {
    it('unknown: a token the service never issued, unsigned since no program is known', async () => {
      const res = await cardHeartbeat(t(), 'x'.repeat(43), 'pc');
      expectStandardFailure(res, 401, CODES.SESSION_INVALID);
      expect(res.body.data).toEqual({ ended_by: 'unknown', ended_at: null, ended_at_iso: null });
      expect(res.headers['x-svc-response-signature']).toBeUndefined();
    });

    it('expired: a session past its own expiry, at that expiry', async () => {
      const { token, machine } = await cardSession();
      const expiry = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
      await sessionRepo(t()).update({ tokenHash: hashToken(token) }, { expiresAt: expiry });
      expectEnded(await cardHeartbeat(t(), token, machine), 'expired', expiry);
    });

    it('card_expired: a card that expired, whether the heartbeat finds it or the session ran out with it', async () => {
      const live = await cardSession();
      await cardRepos(t()).cards.update({ id: live.card.id }, { expiresAt: new Date(Date.now() - 1000) });
      expectEnded(await cardHeartbeat(t(), live.token, live.machine), 'card_expired');

      const ranOut = await cardSession();
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000);
      await cardRepos(t()).cards.update({ id: ranOut.card.id }, { expiresAt: at });
      await sessionRepo(t()).update({ tokenHash: hashToken(ranOut.token) }, { expiresAt: at });
      expectEnded(await cardHeartbeat(t(), ranOut.token, ranOut.machine), 'card_expired', at);
    });

    it("forced_offline: the author ends the card's sessions, and the reason stays on every later heartbeat", async () => {
      const { card, token, machine } = await cardSession();
      await world.author.post(`/admin/v1/projects/${world.project.id}/sessions/revoke`, { card_id: card.id }).expect(200);
      const first = await cardHeartbeat(t(), token, machine);
      expectEnded(first, 'forced_offline');
      const again = await cardHeartbeat(t(), token, machine);
      expectEnded(again, 'forced_offline');
      expect(again.body.data.ended_at).toBe(first.body.data.ended_at);
    });

    it('card_banned: a ban by the author, and one the heartbeat finds (a bulk ban ends no session itself)', async () => {
      const banned = await cardSession();
      await world.author
        .patch(`/admin/v1/projects/${world.project.id}/cards/${banned.card.id}`, { status: 'banned' })
        .expect(200);
      expectEnded(await cardHeartbeat(t(), banned.token, banned.machine), 'card_banned');

      const found = await cardSession();
      await cardRepos(t()).cards.update({ id: found.card.id }, { status: 'banned' });
      expectEnded(await cardHeartbeat(t(), found.token, found.machine), 'card_banned');
      // Unbanning brings nothing back: the session stays ended for the same reason.
      await cardRepos(t()).cards.update({ id: found.card.id }, { status: 'active' });
      expectEnded(await cardHeartbeat(t(), found.token, found.machine), 'card_banned');
    });

    it('device_unbound: the author or the end user unbinds the device (a deleted card leaves an unknown token)', async () => {
      const byAuthor = await cardSession();
      const devices = `/admin/v1/projects/${world.project.id}/cards/${byAuthor.card.id}/devices/${byAuthor.machine}`;
      await world.author.delete(devices).expect(204);
      expectEnded(await cardHeartbeat(t(), byAuthor.token, byAuthor.machine), 'device_unbound');

      const byHolder = await cardSession();
      const unbind = await signedPost(
        t(),
        '/api/v1/cards/unbind',
        { app: world.project.program_id, card_key: byHolder.card.code, machine_id: byHolder.machine },
        'json',
        world.project.api_secret,
      );
      expect(unbind.body.code).toBe(1);
      expectEnded(await cardHeartbeat(t(), byHolder.token, byHolder.machine), 'device_unbound');

      // A deleted card takes its sessions with it: their tokens are no longer known at all.
      const deleted = await cardSession();
      await world.author.delete(`/admin/v1/projects/${world.project.id}/cards/${deleted.card.id}`).expect(204);
      const gone = await cardHeartbeat(t(), deleted.token, deleted.machine);
      expectStandardFailure(gone, 401, CODES.SESSION_INVALID);
      expect(gone.body.data).toEqual({ ended_by: 'unknown', ended_at: null, ended_at_iso: null });
    });

    it('card_no_uses_left: a top-up card consumed into another card', async () => {
      const { card, token, machine } = await cardSession();
      await cardRepos(t()).cards.update({ id: card.id }, { status: 'consumed' });
      expectEnded(await cardHeartbeat(t(), token, machine), 'card_no_uses_left');
    });

    it('seat_evicted: a newer login took the seat of a card that evicts the oldest', async () => {
      const target = await world.author.createProject({ seat_policy: 'evict_oldest' });
      await world.admin
        .put(`/admin/v1/projects/${target.id}/interfaces/card_login`, { authorized: true, daily_quota: 1000 })
        .catch(() => undefined);
      const card = await insertCard(t(), target.id, { deviceLimit: 2, concurrentLimit: 1 });
      const login = (machine: string) =>
        sdkLogin(t(), target.api_secret, { app: target.program_id, card_key: card.code, machine_id: machine }).expect(200);
      const oldest = (await login('seat-a')).body.data.session_token as string;
      expect((await login('seat-b')).body.code).toBe(0);
      expectEnded(await cardHeartbeat(t(), oldest, 'seat-a'), 'seat_evicted');
    });
  });

  describe('program-user sessions', () => {
    const users = () => t().app.get<Repository<AppUser>>(getRepositoryToken(AppUser));
    const heartbeat = (token: string, machine: string) =>
      t().http().post('/api/v1/users/heartbeat').set('Authorization', `Bearer ${token}`).send({ machine_id: machine });

    async function userSession(machine = 'm-1') {
      const username = unique('u');
      const fields = { app: world.project.program_id, username, password: 'user-password-1', machine_id: machine };
      const reg = await signedPost(t(), '/api/v1/users/register', fields, 'json', world.project.api_secret).expect(200);
      const res = await signedPost(t(), '/api/v1/users/login', fields, 'json', world.project.api_secret).expect(200);
      expect(res.body.code).toBe(0);
      return { userId: reg.body.data.user_id as number, fields, token: res.body.data.session_token as string };
    }

    it('user_banned: a ban by the author, and one the heartbeat finds', async () => {
      const byAuthor = await userSession();
      await world.author
        .patch(`/admin/v1/projects/${world.project.id}/app-users/${byAuthor.userId}`, { status: 'banned' })
        .expect(200);
      expectEnded(await heartbeat(byAuthor.token, 'm-1'), 'user_banned');

      const found = await userSession();
      await users().update({ id: found.userId }, { status: 'banned' });
      expectEnded(await heartbeat(found.token, 'm-1'), 'user_banned');
    });

    it('user_deleted: the user is gone', async () => {
      const { userId, token } = await userSession();
      await users().delete({ id: userId });
      expectEnded(await heartbeat(token, 'm-1'), 'user_deleted');
    });

    it('device_unbound: a login from another machine moved the binding (rebind policy)', async () => {
      const { fields, token } = await userSession('old-pc');
      const moved = await signedPost(
        t(),
        '/api/v1/users/login',
        { ...fields, machine_id: 'new-pc' },
        'json',
        world.project.api_secret,
      );
      expect(moved.body.code).toBe(0);
      expectEnded(await heartbeat(token, 'old-pc'), 'device_unbound');
    });

    it('forced_offline: the author resets the password', async () => {
      const { userId, token } = await userSession();
      await world.author
        .patch(`/admin/v1/projects/${world.project.id}/app-users/${userId}`, { password: 'another-password-2' })
        .expect(200);
      expectEnded(await heartbeat(token, 'm-1'), 'forced_offline');
    });
  });
});
