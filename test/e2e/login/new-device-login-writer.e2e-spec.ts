import { DataSource } from 'typeorm';
import { Card } from '../../../src/cards/card.entity';
import { NewDeviceLoginWriter } from '../../../src/cards/new-device-login-writer';
import { PendingLogin } from '../../../src/cards/pending-login-writer';
import { PreparedStatements } from '../../../src/database/prepared-statements';
import { cardRepos, insertCard, loginWriterFixture, pendingLogin } from '../../support/cards';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Group commit of the new-device login on a real database: concurrent first uses and new
 * devices share statements, each card is activated once, binds its device and counts it, with one
 * log row per login; a card the statement does not admit is left untouched for the locked path.
 */
describe('NewDeviceLoginWriter on a real database', () => {
  let t: TestApp;
  let writer: NewDeviceLoginWriter;
  let statements: PreparedStatements;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ writer, statements, projectId } = await loginWriterFixture(t, NewDeviceLoginWriter));
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  const login = (card: Pick<Card, 'code'>, machine: string): PendingLogin => pendingLogin(projectId, card, machine);

  async function boundDevices(card: Card): Promise<{ counted: number; rows: string[] }> {
    const [row] = await t.app.get(DataSource).query('SELECT bound_devices FROM cards WHERE id = $1', [card.id]);
    const devices = await cardRepos(t).devices.findBy({ cardId: card.id });
    return { counted: row.bound_devices, rows: devices.map((device) => device.machineCode).sort() };
  }

  it('activates 40 unused cards from 40 concurrent first logins in fewer statements: each bound, counted and logged once', async () => {
    const cards = await Promise.all(Array.from({ length: 40 }, () => insertCard(t, projectId, { durationSeconds: 3600 })));
    const sent = jest.spyOn(statements, 'rows');
    const logins = cards.map((card, i) => login(card, `pc-${i}`));
    const before = Date.now();
    const rows = await Promise.all(logins.map((one) => writer.write(one)));

    expect(rows.map((row) => row?.id)).toEqual(cards.map((card) => card.id));
    expect(sent.mock.calls.length).toBeLessThan(40);
    const stored = await cardRepos(t).cards.findBy(cards.map((card) => ({ id: card.id })));
    expect(stored).toHaveLength(40);
    for (const card of stored) {
      expect([card.status, card.useCount]).toEqual(['active', 1]);
      expect(card.expiresAt!.getTime() - card.activatedAt!.getTime()).toBe(3_600_000);
      expect(card.activatedAt!.getTime()).toBeGreaterThan(before - 5_000);
    }
    expect(await Promise.all(cards.map(boundDevices))).toEqual(cards.map((_, i) => ({ counted: 1, rows: [`pc-${i}`] })));
    const logged: Array<{ request_id: string; card_id: number; token_hash: string }> = await t.app
      .get(DataSource)
      .query('SELECT request_id, card_id, token_hash FROM login_logs WHERE request_id = ANY($1)', [
        logins.map((one) => one.log.requestId),
      ]);
    expect(logged.map((row) => [row.request_id, row.card_id, row.token_hash]).sort()).toEqual(
      logins.map((one, i) => [one.log.requestId, cards[i].id, one.log.tokenHash]).sort(),
    );
  });

  it('binds up to the device limit when ten devices race for a 3-device card, and leaves the rest to the locked path', async () => {
    const card = await insertCard(t, projectId, { deviceLimit: 3 });
    const logins = Array.from({ length: 10 }, (_, i) => login(card, `racer-${i}`));
    const rows = await Promise.all(logins.map((one) => writer.write(one)));

    const admitted = rows.flatMap((row, i) => (row ? [`racer-${i}`] : []));
    expect(admitted).toHaveLength(3);
    expect(await boundDevices(card)).toEqual({ counted: 3, rows: admitted.sort() });
    expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(3);
    expect(await cardRepos(t).logs.countBy({ cardId: card.id })).toBe(3);
  });

  it('answers null and writes nothing for a card the rule refuses, a used-up count card, or a card with seats on a seated login', async () => {
    const banned = await insertCard(t, projectId, { status: 'banned' });
    const expired = await insertCard(t, projectId, {
      status: 'active',
      activatedAt: new Date(Date.now() - 7200_000),
      expiresAt: new Date(Date.now() - 1000),
    });
    const usedUp = await insertCard(t, projectId, { kind: 'count', usesLeft: 0 });
    const seats = await insertCard(t, projectId, { concurrentLimit: 2 });
    const logins = [login(banned, 'a'), login(expired, 'b'), login(usedUp, 'c'), { ...login(seats, 'd'), seated: true }];
    expect(await Promise.all(logins.map((one) => writer.write(one)))).toEqual([null, null, null, null]);

    expect(await cardRepos(t).logs.findBy(logins.map((one) => ({ requestId: one.log.requestId })))).toEqual([]);
    const stored = await cardRepos(t).cards.findBy([banned, expired, usedUp, seats].map((card) => ({ id: card.id })));
    expect(stored.map((card) => card.useCount)).toEqual([0, 0, 0, 0]);
    expect(await cardRepos(t).devices.countBy([banned, expired, usedUp, seats].map((card) => ({ cardId: card.id })))).toBe(0);
  });

  it('takes one use of a count card with its first device, and keeps an active card’s expiry', async () => {
    const count = await insertCard(t, projectId, { kind: 'count', usesLeft: 5, durationSeconds: 0 });
    const expiresAt = new Date(Date.now() + 86_400_000);
    const active = await insertCard(t, projectId, {
      status: 'active',
      activatedAt: new Date(Date.now() - 1000),
      expiresAt,
      deviceLimit: 2,
    });
    await cardRepos(t).devices.insert({ cardId: active.id, machineCode: 'first', boundAt: new Date() });
    await Promise.all([writer.write(login(count, 'pc')), writer.write(login(active, 'second'))]);

    const [storedCount, storedActive] = await Promise.all(
      [count, active].map((card) => cardRepos(t).cards.findOneByOrFail({ id: card.id })),
    );
    expect([storedCount.usesLeft, storedCount.expiresAt]).toEqual([4, null]);
    expect(storedActive.expiresAt).toEqual(expiresAt);
    expect(await boundDevices(active)).toEqual({ counted: 2, rows: ['first', 'second'] });
  });
});
