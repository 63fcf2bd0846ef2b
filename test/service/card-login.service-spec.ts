import { ClientCall } from '../../src/access/client-call';
import { ClientFamilyName } from '../../src/core/client-families';
import { ClientProgramDirectory } from '../../src/access/client-program';
import { CardLoginService } from '../../src/cards/card-login.service';
import { Card } from '../../src/cards/card.entity';
import { LoginTokensService } from '../../src/cards/login-tokens.service';
import { ErrorCode } from '../../src/core/errors/error-code';
import { ServiceError } from '../../src/core/errors/service-error';
import { PreparedStatements } from '../../src/database/prepared-statements';
import { DataSource } from 'typeorm';
import { cardRepos, insertCard } from '../support/cards';
import { ServiceContext, startServiceContext } from '../support/service-context';
import { createAuthor, createProject } from '../support/service-fixtures';
import { unique } from '../support/test-app';

/**
 * The card-login rule itself (decisions §4), on a real database and without HTTP: every family's
 * login is this service, so the refusals, first use, device binding, the log row of every attempt
 * and the races are checked here once; each family's e2e spec checks how it renders the outcome.
 */
describe('CardLoginService on a real database', () => {
  let t: ServiceContext;
  let service: CardLoginService;
  let projectId: string;
  let call: (family?: ClientFamilyName) => Promise<ClientCall>;

  beforeAll(async () => {
    t = await startServiceContext();
    projectId = (await createProject(t.app, await createAuthor(t.app))).id;
    service = t.app.get(CardLoginService);
    const directory = t.app.get(ClientProgramDirectory);
    call = async (family = 'sdk') => ({
      program: await directory.byProjectId(projectId),
      family,
      ip: '198.51.100.7',
      requestId: unique('req'),
    });
  });
  afterAll(() => t?.close());

  /** The outcome of one login: 0 on success, else the refusal's code. */
  async function outcome(cardKey: string, machine: string, family: ClientFamilyName = 'sdk'): Promise<number> {
    try {
      await service.login({ call: await call(family), cardKey, machine });
      return 0;
    } catch (error) {
      if (error instanceof ServiceError) return error.code;
      throw error;
    }
  }
  const reload = (card: Card) => cardRepos(t).cards.findOneByOrFail({ id: card.id });
  const logsOf = (card: Card) => cardRepos(t).logs.find({ where: { cardCode: card.code }, order: { id: 'ASC' } });
  const devicesOf = async (card: Card) =>
    (await cardRepos(t).devices.findBy({ cardId: card.id })).map((d) => d.machineCode).sort();

  it('refuses an unknown card with CARD_INVALID and logs the attempt without a card', async () => {
    const code = unique('NOPE').toUpperCase();
    expect(await outcome(code, 'dev-1', 'legacy')).toBe(ErrorCode.CARD_INVALID);
    const [row] = await cardRepos(t).logs.findBy({ cardCode: code });
    expect(row).toMatchObject({
      cardId: null,
      resultCode: ErrorCode.CARD_INVALID,
      family: 'legacy',
      interface: 'card_login',
      ip: '198.51.100.7',
    });
  });

  it('activates a card at first use: status, expiry from its duration, the device bound, one use, one log row', async () => {
    const card = await insertCard(t, projectId, { durationSeconds: 3600 });
    const before = Date.now();
    const { token, card: answered } = await service.login({ call: await call(), cardKey: card.code, machine: 'dev-1' });
    const stored = await reload(card);
    expect(stored).toMatchObject({ status: 'active', useCount: 1 });
    expect(stored.expiresAt!.getTime() - stored.activatedAt!.getTime()).toBe(3600_000);
    expect(stored.activatedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(answered.expiresAt?.getTime()).toBe(stored.expiresAt?.getTime());
    expect(await devicesOf(card)).toEqual(['dev-1']);
    const logs = await logsOf(card);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ cardId: card.id, resultCode: 0, family: 'sdk' });
    // The answered token proves this login (its hash is on the log row), and only it.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.app.get(LoginTokensService).isValid(projectId, token)).toBe(true);
    expect(await t.app.get(LoginTokensService).isValid(projectId, `${token.slice(0, -1)}A`)).toBe(token.endsWith('A'));
  });

  it('keeps a permanent card (duration 0) without an expiry', async () => {
    const card = await insertCard(t, projectId, { durationSeconds: 0 });
    expect(await outcome(card.code, 'dev-1')).toBe(0);
    expect(await reload(card)).toMatchObject({ status: 'active', expiresAt: null });
  });

  it('counts every repeat login from a bound device (the one-statement path) and logs each', async () => {
    const card = await insertCard(t, projectId);
    for (let i = 0; i < 3; i += 1) expect(await outcome(card.code, 'dev-1')).toBe(0);
    expect((await reload(card)).useCount).toBe(3);
    expect((await logsOf(card)).map((row) => row.resultCode)).toEqual([0, 0, 0]);
  });

  it('refuses a banned card with CARD_BANNED, also from its bound device, and counts nothing', async () => {
    const card = await insertCard(t, projectId);
    expect(await outcome(card.code, 'dev-1')).toBe(0);
    await cardRepos(t).cards.update({ id: card.id }, { status: 'banned' });
    expect(await outcome(card.code, 'dev-1')).toBe(ErrorCode.CARD_BANNED);
    expect(await outcome(card.code, 'dev-2')).toBe(ErrorCode.CARD_BANNED);
    expect((await reload(card)).useCount).toBe(1);
    expect(await devicesOf(card)).toEqual(['dev-1']);
    expect((await logsOf(card)).map((row) => row.resultCode)).toEqual([0, ErrorCode.CARD_BANNED, ErrorCode.CARD_BANNED]);
  });

  it('is expired from the instant of expires_at on, on the bound device (fast path) and a new one (locked path)', async () => {
    const card = await insertCard(t, projectId);
    expect(await outcome(card.code, 'dev-1')).toBe(0);
    // Expiring exactly now: by the time the statement runs, now() is at or past it.
    await cardRepos(t).cards.update({ id: card.id }, { expiresAt: new Date() });
    expect(await outcome(card.code, 'dev-1')).toBe(ErrorCode.CARD_EXPIRED);
    expect(await outcome(card.code, 'dev-2')).toBe(ErrorCode.CARD_EXPIRED);
    await cardRepos(t).cards.update({ id: card.id }, { expiresAt: new Date(Date.now() + 60_000) });
    expect(await outcome(card.code, 'dev-1')).toBe(0);
    expect((await reload(card)).useCount).toBe(2);
  });

  it('binds new devices up to device_limit, then refuses a new one with DEVICE_LIMIT_REACHED while bound ones still log in', async () => {
    const card = await insertCard(t, projectId, { deviceLimit: 2 });
    expect(await outcome(card.code, 'dev-1')).toBe(0);
    expect(await outcome(card.code, 'dev-2')).toBe(0);
    expect(await outcome(card.code, 'dev-3')).toBe(ErrorCode.DEVICE_LIMIT_REACHED);
    expect(await outcome(card.code, 'dev-2')).toBe(0);
    expect(await devicesOf(card)).toEqual(['dev-1', 'dev-2']);
    const logs = await logsOf(card);
    expect(logs.map((row) => row.resultCode)).toEqual([0, 0, ErrorCode.DEVICE_LIMIT_REACHED, 0]);
    expect(logs[2].cardId).toBe(card.id);
  });

  it('logs a gate refusal too, with the gate code (program disabled)', async () => {
    const card = await insertCard(t, projectId);
    const refused = { ...(await call()) };
    refused.program = { ...refused.program, project: { ...refused.program.project, status: 'disabled' } };
    await expect(service.login({ call: refused, cardKey: card.code, machine: 'dev-1' })).rejects.toMatchObject({
      code: ErrorCode.PROGRAM_DISABLED,
    });
    expect((await logsOf(card)).map((row) => row.resultCode)).toEqual([ErrorCode.PROGRAM_DISABLED]);
    expect((await reload(card)).status).toBe('unused');
  });

  it('logs 20 concurrent gate refusals, each with its own row, in fewer statements (the refusals share them)', async () => {
    const cards = await Promise.all(Array.from({ length: 20 }, () => insertCard(t, projectId)));
    const sent = jest.spyOn(t.app.get(PreparedStatements), 'rows');
    const refused = { ...(await call()) };
    refused.program = { ...refused.program, project: { ...refused.program.project, status: 'disabled' } };
    const outcomes = await Promise.allSettled(
      cards.map((card, i) =>
        service.login({ call: { ...refused, requestId: unique(`flood-${i}`) }, cardKey: card.code, machine: 'dev-1' }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason.code === ErrorCode.PROGRAM_DISABLED)).toBe(
      true,
    );
    expect(sent.mock.calls.length).toBeLessThan(20);
    sent.mockRestore();
    for (const card of cards) expect((await logsOf(card)).map((row) => row.resultCode)).toEqual([ErrorCode.PROGRAM_DISABLED]);
  });

  it("counts a card's bound devices whoever writes them, so a freed slot takes a new device at once", async () => {
    const card = await insertCard(t, projectId, { deviceLimit: 2 });
    const counted = async () => {
      const [row] = await t.app
        .get(DataSource)
        .query(
          'SELECT bound_devices AS n, (SELECT count(*)::int FROM card_devices WHERE card_id = $1) AS real FROM cards WHERE id = $1',
          [card.id],
        );
      expect(row.n).toBe(row.real);
      return row.n as number;
    };
    expect(await outcome(card.code, 'dev-a')).toBe(0);
    expect(await outcome(card.code, 'dev-b')).toBe(0);
    expect(await counted()).toBe(2);
    expect(await outcome(card.code, 'dev-c')).toBe(ErrorCode.DEVICE_LIMIT_REACHED);
    // An unbind (any delete of a binding) frees a slot; an import (several rows in one statement) takes them.
    await cardRepos(t).devices.delete({ cardId: card.id, machineCode: 'dev-a' });
    expect(await counted()).toBe(1);
    expect(await outcome(card.code, 'dev-c')).toBe(0);
    await cardRepos(t).devices.delete({ cardId: card.id });
    await cardRepos(t).devices.insert([
      { cardId: card.id, machineCode: 'imp-1' },
      { cardId: card.id, machineCode: 'imp-2' },
    ]);
    expect(await counted()).toBe(2);
    expect(await outcome(card.code, 'dev-d')).toBe(ErrorCode.DEVICE_LIMIT_REACHED);
    expect(await outcome(card.code, 'imp-1')).toBe(0);
    expect(await counted()).toBe(2);
  });

  describe('races', () => {
    it('20 concurrent first logins from 20 devices on a card with device_limit 3: exactly 3 bind, 20 log rows', async () => {
      const card = await insertCard(t, projectId, { deviceLimit: 3 });
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => outcome(card.code, `race-dev-${i}`)));
      expect(results.filter((code) => code === 0)).toHaveLength(3);
      expect(results.filter((code) => code === ErrorCode.DEVICE_LIMIT_REACHED)).toHaveLength(17);
      const stored = await reload(card);
      expect(stored).toMatchObject({ status: 'active', useCount: 3 });
      expect(await devicesOf(card)).toHaveLength(3);
      expect(await logsOf(card)).toHaveLength(20);
    });

    it('30 concurrent logins of one device on one card: one activation, one binding, 30 uses', async () => {
      const card = await insertCard(t, projectId, { durationSeconds: 3600 });
      const results = await Promise.all(Array.from({ length: 30 }, () => outcome(card.code, 'same-dev')));
      expect(results).toEqual(Array(30).fill(0));
      const stored = await reload(card);
      expect(stored.useCount).toBe(30);
      expect(stored.expiresAt!.getTime() - stored.activatedAt!.getTime()).toBe(3600_000);
      expect(await devicesOf(card)).toEqual(['same-dev']);
      expect(await logsOf(card)).toHaveLength(30);
    });
  });
});
