import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import {
  cardHeartbeat,
  CODES,
  expectStandardFailure,
  sdkLogin,
  sessionRepo,
  TIMESTAMP,
  v3Login,
  wallClock,
} from '../../support/standard';
import { TestApp } from '../../support/test-app';
import { buildWorld } from '../../support/world';
import { Card } from '../../../src/cards/card.entity';
import { AppConfig } from '../../../src/config/app-config';
import { hashToken } from '../../../src/core/crypto/tokens';
import { Session } from '../../../src/sessions/session.entity';
import { SessionsService } from '../../../src/sessions/sessions.service';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe('card sessions: SDK login, card heartbeat, renewal and forced offline (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  let timeZone: string;

  /** An SDK login that must succeed; returns the card, the session token and the login body. */
  async function openSession(target: Project = project, machine = 'sess-dev', fields: Partial<Card> = {}) {
    const card = await insertCard(t, target.id, fields);
    const res = await sdkLogin(t, target.api_secret, { app: target.program_id, card_key: card.code, machine_id: machine }).expect(
      200,
    );
    expect(res.body).toMatchObject({ code: 0, success: true });
    return { card, token: res.body.data.session_token as string, login: res.body, machine };
  }

  /** A second SDK login of an existing card (same or another bound device). */
  async function loginAgain(target: Project, card: Card, machine: string) {
    const res = await sdkLogin(t, target.api_secret, { app: target.program_id, card_key: card.code, machine_id: machine }).expect(
      200,
    );
    return res.body.data.session_token as string;
  }

  const rowOf = (token: string): Promise<Session> => sessionRepo(t).findOneByOrFail({ tokenHash: hashToken(token) });

  async function expectAlive(token: string, machine: string) {
    const res = await cardHeartbeat(t, token, machine);
    expect({ http: res.status, code: res.body.code }).toEqual({ http: 200, code: 0 });
    return res;
  }

  async function expectDead(token: string, machine: string) {
    expectStandardFailure(await cardHeartbeat(t, token, machine), 401, CODES.SESSION_INVALID);
  }

  beforeAll(async () => {
    ({ t, admin, author, project } = await buildWorld());
    timeZone = t.app.get(AppConfig).APP_TIMEZONE;
  });
  afterAll(() => t.close());

  describe('SDK login opens a card session', () => {
    it('returns data.session_token and data.session_expires_at (YYYY-MM-DD HH:MM:SS) of a stored card session', async () => {
      const before = Date.now();
      const { card, token, login, machine } = await openSession();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(login.data.session_expires_at).toMatch(TIMESTAMP);
      const row = await rowOf(token);
      expect(row).toMatchObject({
        type: 'card',
        projectId: project.id,
        cardId: card.id,
        userId: null,
        machineCode: machine,
        revokedAt: null,
      });
      expect(row.tokenHash).not.toContain(token);
      expect(login.data.session_expires_at).toBe(wallClock(row.expiresAt, timeZone));
      // Default session_ttl_seconds is 600.
      expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 600_000 - 1000);
      expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 600_000 + 1000);
    });

    it('stores the session only as the SHA-256 of its token', async () => {
      const { token } = await openSession();
      const row = await rowOf(token);
      expect(row.tokenHash).toBe(hashToken(token));
      expect(await sessionRepo(t).countBy({ tokenHash: token.padEnd(64, '0').slice(0, 64) })).toBe(0);
    });

    it('caps the session at the card expiry: a card expiring in 60 s with session_ttl_seconds 600 gives a session ending at the card expiry', async () => {
      const cardExpiry = new Date(Date.now() + 60_000);
      const { card, token, login } = await openSession(project, 'cap-dev', {
        status: 'active',
        activatedAt: new Date(Date.now() - 1000),
        expiresAt: cardExpiry,
      });
      const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
      const row = await rowOf(token);
      expect(row.expiresAt.getTime()).toBe(stored.expiresAt!.getTime());
      expect(login.data.session_expires_at).toBe(login.data.expires_at);
      expect(login.data.session_expires_at).toBe(wallClock(stored.expiresAt!, timeZone));
    });

    it('opens a new independent session at each SDK login', async () => {
      const { card, token } = await openSession(project, 'multi');
      const second = await loginAgain(project, card, 'multi');
      expect(second).not.toBe(token);
      await expectAlive(token, 'multi');
      await expectAlive(second, 'multi');
    });
  });

  describe('heartbeat (POST /api/v1/cards/heartbeat, Bearer session token, JSON {machine_id})', () => {
    it('answers {code:0, success:true, data:{card_id, session_expires_at, server_time}}', async () => {
      const { card, token, machine } = await openSession();
      const before = Math.floor(Date.now() / 1000);
      const res = await expectAlive(token, machine);
      expect(res.body).toEqual({
        code: 0,
        success: true,
        msg: expect.any(String),
        data: {
          card_id: card.id,
          session_expires_at: expect.stringMatching(TIMESTAMP),
          session_expires_at_iso: expect.any(String),
          server_time: expect.any(Number),
          features: [],
          trial: false,
        },
        request_id: res.headers['x-request-id'],
      });
      expect(Number.isInteger(res.body.data.server_time)).toBe(true);
      expect(res.body.data.server_time).toBeGreaterThanOrEqual(before);
      expect(res.body.data.server_time).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      expect(res.body.data.session_expires_at).toBe(wallClock((await rowOf(token)).expiresAt, timeZone));
    });

    it('answers a heartbeat without a Bearer token with SESSION_INVALID 30101 (HTTP 401)', async () => {
      expectStandardFailure(await cardHeartbeat(t, null, 'dev'), 401, CODES.SESSION_INVALID);
    });

    it('answers a malformed Authorization header (Basic, empty Bearer, short token) with 30101', async () => {
      const { token, machine } = await openSession();
      for (const header of [`Basic ${token}`, 'Bearer ', 'Bearer short', token]) {
        const res = await t.http().post('/api/v1/cards/heartbeat').set('Authorization', header).send({ machine_id: machine });
        expectStandardFailure(res, 401, CODES.SESSION_INVALID);
      }
    });

    it('answers an unknown session token with SESSION_INVALID 30101', async () => {
      await expectDead('A'.repeat(43), 'dev');
    });

    it('answers a heartbeat from another machine_id with MACHINE_MISMATCH 30004 (HTTP 200), leaving the session alive', async () => {
      const { token, machine } = await openSession(project, 'the-machine');
      expectStandardFailure(await cardHeartbeat(t, token, 'another-machine'), 200, CODES.MACHINE_MISMATCH);
      expect((await rowOf(token)).revokedAt).toBeNull();
      await expectAlive(token, machine);
    });

    it('answers a heartbeat without machine_id with BAD_REQUEST 10001 (HTTP 400)', async () => {
      const { token } = await openSession();
      const res = await t.http().post('/api/v1/cards/heartbeat').set('Authorization', `Bearer ${token}`).send({});
      expectStandardFailure(res, 400, CODES.BAD_REQUEST);
    });

    it('answers a program-user (app_user) session token with SESSION_TYPE_MISMATCH 30102 (HTTP 401)', async () => {
      const { token } = await t.app.get(SessionsService).open({
        type: 'app_user',
        projectId: project.id,
        userId: 1,
        machine: 'user-machine',
        expiresAt: new Date(Date.now() + 600_000),
      });
      expectStandardFailure(await cardHeartbeat(t, token, 'user-machine'), 401, CODES.SESSION_TYPE_MISMATCH);
    });

    it('answers an expired session (expires_at in the past) with SESSION_INVALID 30101', async () => {
      const { token, machine } = await openSession();
      await sessionRepo(t).update({ tokenHash: hashToken(token) }, { expiresAt: new Date(Date.now() - 1000) });
      await expectDead(token, machine);
    });

    it('refuses a heartbeat of a disabled program (PROGRAM_DISABLED 10202) and one where card_heartbeat is not authorized (10206)', async () => {
      const target = await author.createProject();
      const { token, machine } = await openSession(target);
      await admin
        .put(`/admin/v1/projects/${target.id}/interfaces/card_heartbeat`, { authorized: false, daily_quota: null })
        .expect(200);
      expectStandardFailure(await cardHeartbeat(t, token, machine), 403, CODES.INTERFACE_NOT_AUTHORIZED);
      await admin
        .put(`/admin/v1/projects/${target.id}/interfaces/card_heartbeat`, { authorized: true, daily_quota: null })
        .expect(200);
      await expectAlive(token, machine);
      await author.patch(`/admin/v1/projects/${target.id}`, { status: 'disabled' }).expect(200);
      expectStandardFailure(await cardHeartbeat(t, token, machine), 403, CODES.PROGRAM_DISABLED);
    });
  });

  describe('the heartbeat re-checks the card', () => {
    it('ends the session of a banned card (next heartbeat 30101), and it stays dead after the card is unbanned', async () => {
      const { card, token, machine } = await openSession();
      await expectAlive(token, machine);
      await author.patch(`/admin/v1/projects/${project.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
      await expectDead(token, machine);
      expect((await rowOf(token)).revokedAt).not.toBeNull();
      await author.patch(`/admin/v1/projects/${project.id}/cards/${card.id}`, { status: 'active' }).expect(200);
      await expectDead(token, machine);
      // The unbanned card can log in again and gets a fresh session.
      const fresh = await loginAgain(project, card, machine);
      await expectAlive(fresh, machine);
    });

    it('ends the session of a card banned through the repository', async () => {
      const { card, token, machine } = await openSession();
      await cardRepos(t).cards.update({ id: card.id }, { status: 'banned' });
      await expectDead(token, machine);
      await cardRepos(t).cards.update({ id: card.id }, { status: 'active' });
      await expectDead(token, machine);
    });

    it('ends the session of a card that has expired (30101)', async () => {
      const { card, token, machine } = await openSession();
      await cardRepos(t).cards.update({ id: card.id }, { expiresAt: new Date(Date.now() - 1000) });
      await expectDead(token, machine);
      expect((await rowOf(token)).revokedAt).not.toBeNull();
    });

    it('ends the session of a device unbound by the author (DELETE .../devices/:machine) (30101)', async () => {
      const { card, token, machine } = await openSession(project, 'unbound-dev');
      await author.delete(`/admin/v1/projects/${project.id}/cards/${card.id}/devices/${machine}`).expect(204);
      await expectDead(token, machine);
      // Binding the device again by a new login does not revive the old session.
      const fresh = await loginAgain(project, card, machine);
      await expectDead(token, machine);
      await expectAlive(fresh, machine);
    });

    it('ends the session when the CardDevice row is deleted (30101), keeping the sessions of other devices', async () => {
      const { card, token, machine } = await openSession(project, 'gone-dev', { deviceLimit: 2 });
      const kept = await loginAgain(project, card, 'kept-dev');
      await cardRepos(t).devices.delete({ cardId: card.id, machineCode: machine });
      await expectDead(token, machine);
      await expectAlive(kept, 'kept-dev');
    });
  });

  /** A ban ends a card's sessions at once, so an unban before the next heartbeat does not revive them. */
  it('keeps the session dead when the card is banned and unbanned before any heartbeat', async () => {
    const { card, token, machine } = await openSession();
    await author.patch(`/admin/v1/projects/${project.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
    await author.patch(`/admin/v1/projects/${project.id}/cards/${card.id}`, { status: 'active' }).expect(200);
    await expectDead(token, machine);
  });

  it('revokes the sessions of an unbound device at once: a re-binding login before any heartbeat does not revive them', async () => {
    const { card, token, machine } = await openSession(project, 'rebound', { deviceLimit: 2 });
    const other = await loginAgain(project, card, 'other-device');
    await author.delete(`/admin/v1/projects/${project.id}/cards/${card.id}/devices/${machine}`).expect(204);
    expect((await rowOf(token)).revokedAt).not.toBeNull();
    await loginAgain(project, card, machine);
    await expectDead(token, machine);
    await expectAlive(other, 'other-device');
  });

  describe('forced offline (POST /admin/v1/projects/:id/sessions/revoke)', () => {
    it('revokes the sessions of one card, says how many, and the next heartbeat is 30101', async () => {
      const { card, token, machine } = await openSession(project, 'off-dev');
      const second = await loginAgain(project, card, machine);
      const bystander = await openSession(project, 'bystander');
      const res = await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: card.id }).expect(200);
      expect(res.body).toEqual({ revoked: 2 });
      await expectDead(token, machine);
      await expectDead(second, machine);
      await expectAlive(bystander.token, bystander.machine);
    });

    it('answers revoked: 0 when the card has no live session left', async () => {
      const { card } = await openSession();
      await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: card.id }).expect(200, { revoked: 1 });
      await author.post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: card.id }).expect(200, { revoked: 0 });
    });

    it('revokes every session of the whole project with body {}, says how many, and leaves other projects alone', async () => {
      const target = await author.createProject();
      const neighbour = await author.createProject();
      const sessions = [await openSession(target, 'p-1'), await openSession(target, 'p-2'), await openSession(target, 'p-3')];
      const elsewhere = await openSession(neighbour, 'n-1');
      const res = await author.post(`/admin/v1/projects/${target.id}/sessions/revoke`, {}).expect(200);
      expect(res.body).toEqual({ revoked: 3 });
      for (const s of sessions) await expectDead(s.token, s.machine);
      await expectAlive(elsewhere.token, elsewhere.machine);
    });

    it('does not revoke through a card of another project (revoked: 0)', async () => {
      const target = await author.createProject();
      const foreign = await openSession(target, 'foreign');
      await author
        .post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: foreign.card.id })
        .expect(200, { revoked: 0 });
      await expectAlive(foreign.token, foreign.machine);
    });

    it("answers another author's revoke with 404 and revokes nothing", async () => {
      const { token, machine } = await openSession();
      const stranger = (await admin.createAuthor()).client;
      const res = await stranger.post(`/admin/v1/projects/${project.id}/sessions/revoke`, {});
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
      await expectAlive(token, machine);
    });

    it('lets the platform admin force a project offline', async () => {
      const target = await author.createProject();
      const s = await openSession(target, 'adm');
      await admin.post(`/admin/v1/projects/${target.id}/sessions/revoke`, {}).expect(200, { revoked: 1 });
      await expectDead(s.token, s.machine);
    });

    it('revoking by user_id leaves card sessions alone', async () => {
      const target = await author.createProject();
      const s = await openSession(target, 'card-only');
      await author.post(`/admin/v1/projects/${target.id}/sessions/revoke`, { user_id: 1 }).expect(200, { revoked: 0 });
      await expectAlive(s.token, s.machine);
    });

    it('requires an admin token (401 without one)', async () => {
      await t.http().post(`/admin/v1/projects/${project.id}/sessions/revoke`).send({}).expect(401);
    });
  });

  describe('renewal', () => {
    let short: Project;
    beforeAll(async () => {
      short = await author.createProject();
      await author.patch(`/admin/v1/projects/${short.id}`, { session_ttl_seconds: 60 }).expect(200);
    });

    it('pushes a session 10 s from its end to about now + session_ttl_seconds (60 s)', async () => {
      const { token, machine } = await openSession(short, 'renew');
      await sessionRepo(t).update({ tokenHash: hashToken(token) }, { expiresAt: new Date(Date.now() + 10_000) });
      const before = Date.now();
      const res = await expectAlive(token, machine);
      const row = await rowOf(token);
      expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 60_000 - 1000);
      expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000 + 1000);
      expect(res.body.data.session_expires_at).toBe(wallClock(row.expiresAt, timeZone));
    });

    it('does not write the session row on a heartbeat right after login (expires_at and last_seen_at unchanged)', async () => {
      const { token, machine, login } = await openSession(short, 'no-write');
      const before = await rowOf(token);
      const res = await expectAlive(token, machine);
      await expectAlive(token, machine);
      const after = await rowOf(token);
      expect(after.expiresAt.getTime()).toBe(before.expiresAt.getTime());
      expect(after.lastSeenAt.getTime()).toBe(before.lastSeenAt.getTime());
      expect(res.body.data.session_expires_at).toBe(login.data.session_expires_at);
    });

    it('never renews past the card expiry', async () => {
      const cardExpiry = new Date(Date.now() + 20_000);
      const { token, machine } = await openSession(short, 'renew-cap', {
        status: 'active',
        activatedAt: new Date(),
        expiresAt: cardExpiry,
      });
      await sessionRepo(t).update({ tokenHash: hashToken(token) }, { expiresAt: new Date(Date.now() + 10_000) });
      const res = await expectAlive(token, machine);
      const row = await rowOf(token);
      expect(Math.abs(row.expiresAt.getTime() - cardExpiry.getTime())).toBeLessThan(1000);
      expect(res.body.data.session_expires_at).toBe(wallClock(row.expiresAt, timeZone));
    });

    it('keeps a session alive past its first lifetime through heartbeats', async () => {
      const { token, machine } = await openSession(short, 'keep-alive');
      // Each heartbeat near the end pushes the end out again.
      for (let i = 0; i < 3; i++) {
        await sessionRepo(t).update({ tokenHash: hashToken(token) }, { expiresAt: new Date(Date.now() + 5_000) });
        await expectAlive(token, machine);
        expect((await rowOf(token)).expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
      }
    });
  });

  it('does not create a session on a V3 login', async () => {
    const target = await author.createProject();
    const card = await insertCard(t, target.id);
    await v3Login(t, target.api_secret, { app: target.program_id, kami: card.code, imei: 'v3' }).expect(200);
    expect(await sessionRepo(t).countBy({ projectId: target.id })).toBe(0);
  });
});
