import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import {
  connectLogin,
  connectRepos,
  expectConnectFailure,
  expectOneLogRow,
  openConnectInEveryMode,
  updateProgramSettings,
} from '../../support/connect';
import { withPlatformInterface, withPlatformSettings } from '../../support/platform-state';
import { startTestApp, TestApp, unique } from '../../support/test-app';
import { Card } from '../../../src/cards/card.entity';
import { ProgramCache } from '../../../src/core/cache/program-cache';
import { ErrorCode } from '../../../sdk/src';

/** Catalog codes (decisions §2); Connect shows their negatives. */
const {
  PROGRAM_DISABLED,
  AUTHOR_DISABLED,
  VERIFICATION_SWITCH_OFF,
  INTERFACE_NOT_AUTHORIZED,
  INTERFACE_DISABLED,
  CONNECT_NOT_ENABLED,
  QUOTA_EXCEEDED,
} = ErrorCode;
const SUCCESS = 0;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe('Connect gates: program, author, switches, interfaces, quota, opening modes, announcements (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;

  const PROJECTS = '/admin/v1/projects';
  const login = (project: Project, card: Card, serial = 'gate-device', path: 'connect' | 'conncet' = 'connect') =>
    connectLogin(t, project.program_id, { user_key: card.code, serial }, path);
  const reload = (card: Card) => cardRepos(t).cards.findOneByOrFail({ id: card.id });

  /** A program of `owner` that is open to Connect whatever the platform's opening mode. */
  async function openProgram(owner = author): Promise<Project> {
    const project = await owner.createProject();
    await openConnectInEveryMode(t, project.id);
    return project;
  }

  /** Asserts a gate refusal: exact envelope and status, one log row with the code, the card untouched. */
  async function expectGateRefusal(
    project: Project,
    card: Card,
    httpStatus: number,
    code: number,
    path: 'connect' | 'conncet' = 'connect',
  ) {
    const before = await reload(card);
    const res = await login(project, card, 'gate-device', path);
    expectConnectFailure(res, httpStatus, -code);
    const row = await expectOneLogRow(t, res, code, project.id);
    expect(row.cardCode).toBe(card.code);
    const after = await reload(card);
    expect({ status: after.status, useCount: after.useCount, expiresAt: after.expiresAt }).toEqual({
      status: before.status,
      useCount: before.useCount,
      expiresAt: before.expiresAt,
    });
    expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
    return res;
  }

  async function expectSuccess(project: Project, card: Card, serial = 'gate-device') {
    const res = await login(project, card, serial);
    expect({ http: res.status, status: res.body.status, code: res.body.code }).toEqual({ http: 200, status: true, code: 1 });
    await expectOneLogRow(t, res, SUCCESS, project.id);
    return res;
  }

  const setInterface = (project: Project, name: string, body: { authorized: boolean; daily_quota?: number | null }) =>
    admin.put(`${PROJECTS}/${project.id}/interfaces/${name}`, body).expect(200);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  describe('program and author status, verification switch', () => {
    it('refuses a disabled program with 403 -10202 and logs 10202; enabling it again admits the card', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await author.patch(`${PROJECTS}/${project.id}`, { status: 'disabled' }).expect(200);
      await expectGateRefusal(project, card, 403, PROGRAM_DISABLED);
      await expectGateRefusal(project, card, 403, PROGRAM_DISABLED, 'conncet');
      await author.patch(`${PROJECTS}/${project.id}`, { status: 'active' }).expect(200);
      await expectSuccess(project, card);
    });

    it('refuses the programs of a disabled author with 403 -10203 and logs 10203; re-enabling the author admits them', async () => {
      const owner = await admin.createAuthor();
      const project = await openProgram(owner.client);
      const card = await insertCard(t, project.id);
      await admin.patch(`/admin/v1/authors/${owner.id}`, { status: 'disabled' }).expect(200);
      await expectGateRefusal(project, card, 403, AUTHOR_DISABLED);
      await admin.patch(`/admin/v1/authors/${owner.id}`, { status: 'active' }).expect(200);
      await expectSuccess(project, card);
    });

    it('refuses with 403 -10204 when the verification switch is off, and logs 10204', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await author.patch(`${PROJECTS}/${project.id}`, { verification_enabled: false }).expect(200);
      await expectGateRefusal(project, card, 403, VERIFICATION_SWITCH_OFF);
      await author.patch(`${PROJECTS}/${project.id}`, { verification_enabled: true }).expect(200);
      await expectSuccess(project, card);
    });
  });

  describe('interfaces and quota', () => {
    it('refuses with 403 -10207 while card_login is disabled platform-wide, and logs 10207', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      // A platform switch: keep the window to one request and restore it in any case.
      const res = await withPlatformInterface(admin, 'card_login', false, () => login(project, card));
      expectConnectFailure(res, 403, -INTERFACE_DISABLED);
      await expectOneLogRow(t, res, INTERFACE_DISABLED, project.id);
      expect((await reload(card)).useCount).toBe(0);
      await expectSuccess(project, card);
    });

    it('refuses with 403 -10206 when card_login is not authorized for the project, and only for that project', async () => {
      const project = await openProgram();
      const neighbour = await openProgram();
      const card = await insertCard(t, project.id);
      const neighbourCard = await insertCard(t, neighbour.id);
      await setInterface(project, 'card_login', { authorized: false });
      await expectGateRefusal(project, card, 403, INTERFACE_NOT_AUTHORIZED);
      await expectSuccess(neighbour, neighbourCard);
      await setInterface(project, 'card_login', { authorized: true });
      await expectSuccess(project, card);
    });

    it('ignores the authorization of other interfaces for the login itself', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      for (const name of ['card_unbind', 'card_heartbeat', 'user_login', 'licence_verify'])
        await setInterface(project, name, { authorized: false });
      await expectSuccess(project, card);
    });

    it('admits N logins under a daily quota of N, refuses the next with 429 -10301, and a refused request consumes nothing', async () => {
      const N = 3;
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await setInterface(project, 'card_login', { authorized: true, daily_quota: N });
      for (let i = 0; i < N; i++) await expectSuccess(project, card);
      for (let i = 0; i < 3; i++) {
        const res = await login(project, card);
        expectConnectFailure(res, 429, -QUOTA_EXCEEDED);
        await expectOneLogRow(t, res, QUOTA_EXCEEDED, project.id);
      }
      expect((await reload(card)).useCount).toBe(N);
      // Raising the quota by one admits exactly one more: the three refusals did not count.
      await setInterface(project, 'card_login', { authorized: true, daily_quota: N + 1 });
      await expectSuccess(project, card);
      expectConnectFailure(await login(project, card), 429, -QUOTA_EXCEEDED);
      expect((await reload(card)).useCount).toBe(N + 1);
    });

    it('counts /connect and /conncet of one program in one quota', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await setInterface(project, 'card_login', { authorized: true, daily_quota: 2 });
      expect((await login(project, card, 'q', 'connect')).body.status).toBe(true);
      expect((await login(project, card, 'q', 'conncet')).body.status).toBe(true);
      expectConnectFailure(await login(project, card, 'q', 'conncet'), 429, -QUOTA_EXCEEDED);
      expectConnectFailure(await login(project, card, 'q', 'connect'), 429, -QUOTA_EXCEEDED);
    });

    it("counts each program's quota separately", async () => {
      const limited = await openProgram();
      const other = await openProgram();
      await setInterface(limited, 'card_login', { authorized: true, daily_quota: 1 });
      await setInterface(other, 'card_login', { authorized: true, daily_quota: 1 });
      await expectSuccess(limited, await insertCard(t, limited.id));
      await expectSuccess(other, await insertCard(t, other.id));
      expectConnectFailure(await login(limited, await insertCard(t, limited.id)), 429, -QUOTA_EXCEEDED);
    });

    it('refuses every login under a daily quota of 0, and null lifts the limit', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await setInterface(project, 'card_login', { authorized: true, daily_quota: 0 });
      await expectGateRefusal(project, card, 429, QUOTA_EXCEEDED);
      await setInterface(project, 'card_login', { authorized: true, daily_quota: null });
      for (let i = 0; i < 3; i++) await expectSuccess(project, card);
    });

    it('admits exactly N of 2N concurrent logins under a daily quota of N', async () => {
      const N = 5;
      const project = await openProgram();
      const card = await insertCard(t, project.id, { deviceLimit: 2 * N });
      await setInterface(project, 'card_login', { authorized: true, daily_quota: N });
      const results = await Promise.all(Array.from({ length: 2 * N }, (_, i) => login(project, card, `concurrent-${i}`)));
      expect(results.filter((r) => r.status === 200 && r.body.status === true)).toHaveLength(N);
      const refused = results.filter((r) => r.status === 429);
      expect(refused).toHaveLength(N);
      for (const r of refused) expect(r.body).toMatchObject({ status: false, code: -QUOTA_EXCEEDED });
      expect((await reload(card)).useCount).toBe(N);
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(N);
      expect(await cardRepos(t).logs.countBy({ projectId: project.id, resultCode: QUOTA_EXCEEDED })).toBe(N);
      expect(await cardRepos(t).logs.countBy({ projectId: project.id, resultCode: SUCCESS })).toBe(N);
    });

    it('applies the checks in the decided order: program status, switch, authorization, quota, then the card', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await author.patch(`${PROJECTS}/${project.id}`, { status: 'disabled', verification_enabled: false }).expect(200);
      await setInterface(project, 'card_login', { authorized: false, daily_quota: 0 });
      await cardRepos(t).cards.update({ id: card.id }, { status: 'banned' });

      expectConnectFailure(await login(project, card), 403, -PROGRAM_DISABLED);
      await author.patch(`${PROJECTS}/${project.id}`, { status: 'active' }).expect(200);
      expectConnectFailure(await login(project, card), 403, -VERIFICATION_SWITCH_OFF);
      await author.patch(`${PROJECTS}/${project.id}`, { verification_enabled: true }).expect(200);
      expectConnectFailure(await login(project, card), 403, -INTERFACE_NOT_AUTHORIZED);
      await setInterface(project, 'card_login', { authorized: true, daily_quota: 0 });
      expectConnectFailure(await login(project, card), 429, -QUOTA_EXCEEDED);
      await setInterface(project, 'card_login', { authorized: true, daily_quota: 1 });
      expectConnectFailure(await login(project, card), 200, -20003);
      await cardRepos(t).cards.update({ id: card.id }, { status: 'unused' });
      await setInterface(project, 'card_login', { authorized: true, daily_quota: null });
      await expectSuccess(project, card);
    });
  });

  describe('Connect opening modes (decisions §7)', () => {
    const setEntitlements = (project: Project, body: { basic_package: boolean; plan_level: number }) =>
      admin.put(`${PROJECTS}/${project.id}/entitlements`, { licence_verify: false, ...body }).expect(200);

    it('base_package mode: refuses a project without the basic package with 403 -10208, whatever its plan or switch', async () => {
      const without = await author.createProject();
      const withPackage = await author.createProject();
      await setEntitlements(without, { basic_package: false, plan_level: 1000 });
      await updateProgramSettings(t, without.id, { connectEnabled: true });
      await setEntitlements(withPackage, { basic_package: true, plan_level: 0 });
      const refusedCard = await insertCard(t, without.id);
      const admittedCard = await insertCard(t, withPackage.id);
      const [refused, admitted] = await withPlatformSettings(admin, { connect_opening_mode: 'base_package' }, () =>
        Promise.all([login(without, refusedCard), login(withPackage, admittedCard)]),
      );
      expectConnectFailure(refused, 403, -CONNECT_NOT_ENABLED);
      await expectOneLogRow(t, refused, CONNECT_NOT_ENABLED, without.id);
      expect(admitted.body).toMatchObject({ status: true, code: 1 });
      expect((await reload(refusedCard)).useCount).toBe(0);
    });

    it('entitlement mode: plan_level below connect_min_level is refused with -10208, at the level it is admitted', async () => {
      const project = await author.createProject();
      const card = await insertCard(t, project.id);
      await withPlatformSettings(admin, { connect_opening_mode: 'entitlement', connect_min_level: 2 }, async () => {
        await setEntitlements(project, { basic_package: true, plan_level: 1 });
        const refused = await login(project, card);
        expectConnectFailure(refused, 403, -CONNECT_NOT_ENABLED);
        await expectOneLogRow(t, refused, CONNECT_NOT_ENABLED, project.id);
        await setEntitlements(project, { basic_package: false, plan_level: 2 });
        const admitted = await login(project, card);
        expect(admitted.body).toMatchObject({ status: true, code: 1 });
      });
      expect((await reload(card)).useCount).toBe(1);
    });

    it('self_service mode: refused with -10208 until the author switches Connect on, and again once it is off', async () => {
      const project = await author.createProject();
      const card = await insertCard(t, project.id);
      await withPlatformSettings(admin, { connect_opening_mode: 'self_service' }, async () => {
        const refused = await login(project, card);
        expectConnectFailure(refused, 403, -CONNECT_NOT_ENABLED);
        await expectOneLogRow(t, refused, CONNECT_NOT_ENABLED, project.id);
        await author.put(`${PROJECTS}/${project.id}/connect`, { enabled: true }).expect(200);
        expect((await login(project, card)).body).toMatchObject({ status: true, code: 1 });
        await author.put(`${PROJECTS}/${project.id}/connect`, { enabled: false }).expect(200);
        expectConnectFailure(await login(project, card), 403, -CONNECT_NOT_ENABLED);
      });
      expect((await reload(card)).useCount).toBe(1);
    });
  });

  describe('announcement in data.announcement (spec; decisions §9)', () => {
    /**
     * Inserts an announcement row directly, then drops the program's cached client data as every
     * admin write does (client routes read announcements through the shared program cache).
     */
    async function announce(project: Project, content: string, enabled = true) {
      const { announcements } = connectRepos(t);
      await announcements.save(announcements.create({ projectId: project.id, title: unique('title'), content, enabled }));
      await t.app.get(ProgramCache).invalidate(project.program_id);
    }

    it('shows the newest enabled announcement of the program', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('');
      await announce(project, 'older notice');
      await announce(project, 'newest notice');
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('newest notice');
    });

    it('skips a newer disabled announcement', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await announce(project, 'enabled notice');
      await announce(project, 'disabled newer notice', false);
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('enabled notice');
    });

    it('is empty when every announcement of the program is disabled', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await announce(project, 'off', false);
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('');
    });

    it("never shows another program's announcement", async () => {
      const project = await openProgram();
      const other = await openProgram();
      const card = await insertCard(t, project.id);
      await announce(project, 'mine');
      await announce(other, 'theirs, and newer');
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('mine');
      const quiet = await openProgram();
      await announce(other, 'theirs again');
      expect((await expectSuccess(quiet, await insertCard(t, quiet.id))).body.data.announcement).toBe('');
    });

    it('never shows a platform announcement', async () => {
      const content = unique('operator notice ');
      await admin.post('/admin/v1/platform/announcements', { title: 'Maintenance', content }).expect(201);
      const quiet = await openProgram();
      expect((await expectSuccess(quiet, await insertCard(t, quiet.id))).body.data.announcement).toBe('');
      const project = await openProgram();
      await announce(project, 'program notice');
      const res = await expectSuccess(project, await insertCard(t, project.id));
      expect(res.body.data.announcement).toBe('program notice');
      expect(JSON.stringify(res.body)).not.toContain(content);
    });

    it("is empty where the project's announcement interface is not authorized, and the login still succeeds", async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      await announce(project, 'hidden notice');
      await setInterface(project, 'announcement', { authorized: false });
      const res = await expectSuccess(project, card);
      expect(res.body.data.announcement).toBe('');
      await setInterface(project, 'announcement', { authorized: true });
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('hidden notice');
    });

    it('follows announcements written through the admin API at once: create, disable, delete', async () => {
      const project = await openProgram();
      const card = await insertCard(t, project.id);
      const base = `${PROJECTS}/${project.id}/announcements`;
      expect((await expectSuccess(project, card)).body.data.announcement).toBe(''); // now cached as empty
      const first = (await author.post(base, { title: 'one', content: 'first via API' }).expect(201)).body;
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('first via API');
      const second = (await author.post(base, { title: 'two', content: 'second via API' }).expect(201)).body;
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('second via API');
      await author.patch(`${base}/${second.id}`, { enabled: false }).expect(200);
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('first via API');
      await author.delete(`${base}/${first.id}`).expect(204);
      expect((await expectSuccess(project, card)).body.data.announcement).toBe('');
    });

    it('does not put the announcement into a failure', async () => {
      const project = await openProgram();
      await announce(project, 'notice for failures');
      const res = await connectLogin(t, project.program_id, { user_key: 'NO-SUCH-CARD', serial: 'x' });
      expectConnectFailure(res, 200, -20001);
    });
  });
});
