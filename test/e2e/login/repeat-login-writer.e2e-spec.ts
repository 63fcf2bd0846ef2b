import { Card } from '../../../src/cards/card.entity';
import { PendingLogin } from '../../../src/cards/pending-login-writer';
import { RepeatLoginWriter } from '../../../src/cards/repeat-login-writer';
import { PreparedStatements } from '../../../src/database/prepared-statements';
import { cardRepos, insertCard, loginWriterFixture, pendingLogin } from '../../support/cards';
import { startTestApp, TestApp, unique } from '../../support/test-app';

/**
 * Group commit of the repeat-login fast path on a real database: concurrent repeat logins
 * share statements, each still counts exactly once with its own log row, and a statement that fails
 * for one request is retried one request at a time so that the others still log in.
 */
describe('RepeatLoginWriter on a real database', () => {
  let t: TestApp;
  let writer: RepeatLoginWriter;
  let statements: PreparedStatements;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ writer, statements, projectId } = await loginWriterFixture(t, RepeatLoginWriter));
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  /** An active card bound to `machine`, as a first login leaves it. */
  async function boundCard(machine = 'pc', fields: Partial<Card> = {}): Promise<Card> {
    const card = await insertCard(t, projectId, {
      status: 'active',
      activatedAt: new Date(),
      expiresAt: new Date(Date.now() + 3_600_000),
      ...fields,
    });
    await cardRepos(t).devices.insert({ cardId: card.id, machineCode: machine, boundAt: new Date() });
    return card;
  }

  const login = (card: Pick<Card, 'code'>, machine = 'pc', requestId?: string): PendingLogin =>
    pendingLogin(projectId, card, machine, requestId);

  it('answers 40 concurrent repeat logins of 40 cards from fewer statements, each card counted once with its own log row', async () => {
    const cards = await Promise.all(Array.from({ length: 40 }, () => boundCard()));
    const sent = jest.spyOn(statements, 'rows');
    const logins = cards.map((card) => login(card));
    const rows = await Promise.all(logins.map((one) => writer.write(one)));

    expect(rows.map((row) => row?.id)).toEqual(cards.map((card) => card.id));
    expect(sent.mock.calls.length).toBeLessThan(40);
    const stored = await cardRepos(t).cards.findBy(cards.map((card) => ({ id: card.id })));
    expect(stored.map((card) => card.useCount)).toEqual(Array(40).fill(1));
    expect(stored).toHaveLength(40);
    const logged = await cardRepos(t).logs.findBy(logins.map((one) => ({ requestId: one.log.requestId })));
    expect(logged.map((row) => [row.requestId, row.cardId]).sort()).toEqual(
      logins.map((one, i) => [one.log.requestId, cards[i].id]).sort(),
    );
  });

  it('puts two logins of one card in different statements, and counts both', async () => {
    const card = await boundCard();
    const sent = jest.spyOn(statements, 'rows');
    const rows = await Promise.all([writer.write(login(card)), writer.write(login(card))]);
    expect(rows.map((row) => row?.id)).toEqual([card.id, card.id]);
    expect(sent).toHaveBeenCalledTimes(2);
    expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(2);
  });

  it('locks the cards of concurrent statements in one order: two statements holding the same two cards never deadlock', async () => {
    const [a, b] = [await boundCard(), await boundCard()];
    // Cards between the two, so that each statement spends a while between its two locks.
    const between = await Promise.all(Array.from({ length: 120 }, () => boundCard()));
    const deadlocks: unknown[] = [];
    const run = statements.rows.bind(statements);
    jest.spyOn(statements, 'rows').mockImplementation((...args) =>
      run(...args).catch((error: { code?: string }) => {
        if (error.code === '40P01') deadlocks.push(error);
        throw error;
      }),
    );
    const rounds = 10;
    for (let round = 0; round < rounds; round++) {
      // Queued as a, …, b, b, …, a: in queue order, one statement would take a first and b last, and
      // the next one (under way at the same time) b first and a last.
      const queued = [a, ...between.slice(0, 60), b, b, ...between.slice(60), a];
      const rows = await Promise.all(queued.map((card) => writer.write(login(card))));
      expect(rows.map((row) => row?.id)).toEqual(queued.map((card) => card.id));
    }
    expect(deadlocks).toEqual([]);
    const stored = await cardRepos(t).cards.findBy([{ id: a.id }, { id: b.id }]);
    expect(stored.map((card) => card.useCount)).toEqual([2 * rounds, 2 * rounds]);
  });

  it('answers null, writing nothing, for a card that does not admit a repeat login (new device, banned, expired)', async () => {
    const fresh = await boundCard('pc');
    const banned = await boundCard('pc', { status: 'banned' });
    const expired = await boundCard('pc', { expiresAt: new Date(Date.now() - 1000) });
    const logins = [login(fresh, 'another-pc'), login(banned), login(expired)];
    expect(await Promise.all(logins.map((one) => writer.write(one)))).toEqual([null, null, null]);
    expect(await cardRepos(t).logs.findBy(logins.map((one) => ({ requestId: one.log.requestId })))).toEqual([]);
    const stored = await cardRepos(t).cards.findBy([{ id: fresh.id }, { id: banned.id }, { id: expired.id }]);
    expect(stored.map((card) => card.useCount)).toEqual([0, 0, 0]);
  });

  it('retries a failed statement one request at a time: the faulty request fails, the others log in', async () => {
    const cards = await Promise.all(Array.from({ length: 5 }, () => boundCard()));
    // A request id longer than its column: PostgreSQL refuses the whole statement it is part of.
    const logins = cards.map((card, i) => login(card, 'pc', i === 2 ? 'x'.repeat(65) : unique('req')));
    const outcomes = await Promise.allSettled(logins.map((one) => writer.write(one)));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const stored = await cardRepos(t).cards.findBy(cards.map((card) => ({ id: card.id })));
    const useCounts = cards.map((card) => stored.find((row) => row.id === card.id)?.useCount);
    expect(useCounts).toEqual([1, 1, 0, 1, 1]);
  });

  it('answers a login only once its statement has committed', async () => {
    const card = await boundCard();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = statements.rows.bind(statements);
    jest.spyOn(statements, 'rows').mockImplementation(async (...args) => {
      await held;
      return run(...args);
    });
    let answered = false;
    const pending = writer.write(login(card)).then((row) => ((answered = true), row));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    expect((await pending)?.id).toBe(card.id);
    expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(1);
  });
});
