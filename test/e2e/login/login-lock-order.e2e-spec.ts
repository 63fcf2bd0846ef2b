import { DataSource, QueryRunner } from 'typeorm';
import { Card } from '../../../src/cards/card.entity';
import { NEW_DEVICE_LOGINS } from '../../../src/cards/new-device-login-writer';
import { pendingLoginValues } from '../../../src/cards/pending-login-writer';
import { REPEAT_LOGINS, RepeatLoginWriter } from '../../../src/cards/repeat-login-writer';
import { PreparedStatement } from '../../../src/database/prepared-statements';
import { cardRepos, insertCard, loginWriterFixture, pendingLogin } from '../../support/cards';
import { startTestApp, TestApp } from '../../support/test-app';

/** How the planner joins `req` to the cards in one session: in the requests' order, or in the table's. */
const NESTED_LOOP = ['enable_hashjoin', 'enable_mergejoin'];
const HASH_JOIN_OVER_PAGES = ['enable_nestloop', 'enable_mergejoin', 'enable_indexscan', 'enable_bitmapscan'];

/**
 * The one-statement login writers lock the cards they share with another statement in one order,
 * whatever plan each statement runs. Two sessions are given two plans (one joins in the requests'
 * order, one in the table's pages, where the second card was written first) and made to overlap:
 * a third session holds the first card until both statements wait, then lets go. Taken in plan
 * order, each would then hold the card the other waits for. Needs server sessions of its own, so
 * PostgreSQL only (the embedded database has one), and not through a transaction pooler (.ci/run).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('login statements under different plans (PostgreSQL)', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ projectId } = await loginWriterFixture(t, RepeatLoginWriter));
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t?.close());

  const cases: Array<[string, PreparedStatement, boolean]> = [
    ['repeat logins', REPEAT_LOGINS, true],
    ['new-device logins', NEW_DEVICE_LOGINS, false],
  ];

  it.each(cases)('%s: two statements over the same two cards never deadlock', async (_name, statement, bound) => {
    const card = async (): Promise<Card> => {
      const made = await insertCard(t, projectId, {
        status: 'active',
        activatedAt: new Date(),
        expiresAt: new Date(Date.now() + 3_600_000),
        deviceLimit: 10,
      });
      if (bound) await cardRepos(t).devices.insert({ cardId: made.id, machineCode: 'pc', boundAt: new Date() });
      return made;
    };
    const second = await card(); // written first: a scan of the table's pages meets it first
    const first = await card();
    const [holder, inOrder, overPages] = await Promise.all([1, 2, 3].map(() => session(dataSource)));
    try {
      await holder.runner.query('BEGIN');
      await holder.runner.query('SELECT 1 FROM cards WHERE id = $1 FOR UPDATE', [first.id]);
      const logins = (machine: string) => [first, second].map((one) => pendingLogin(projectId, one, machine));
      const ran = run(inOrder, statement, NESTED_LOOP, logins(bound ? 'pc' : 'pc-a'));
      ran.catch(() => undefined); // awaited below, after the other statement is under way
      await waitingOnLock(inOrder, holder);
      const ranToo = run(overPages, statement, HASH_JOIN_OVER_PAGES, logins(bound ? 'pc' : 'pc-b'));
      ranToo.catch(() => undefined);
      await waitingOnLock(overPages, holder);
      await holder.runner.query('COMMIT');

      const outcomes = await Promise.allSettled([ran, ranToo]);
      expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : outcome.value))).toEqual([2, 2]);
      const stored = await cardRepos(t).cards.findBy([{ id: first.id }, { id: second.id }]);
      expect(stored.map((one) => one.useCount)).toEqual([2, 2]);
    } finally {
      await Promise.all([holder, inOrder, overPages].map((one) => one.release()));
    }
  });
});

interface Session {
  runner: QueryRunner;
  pid: number;
  release(): Promise<void>;
}

async function session(dataSource: DataSource): Promise<Session> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const [{ pid }] = await runner.query('SELECT pg_backend_pid() AS pid');
  return { runner, pid, release: () => runner.release() };
}

/** Runs `statement` for `logins` in its own transaction with the planner settings `off`; the number of logins it admitted. */
async function run(
  { runner }: Session,
  statement: PreparedStatement,
  off: string[],
  logins: ReturnType<typeof pendingLogin>[],
): Promise<number> {
  await runner.query('BEGIN');
  try {
    for (const setting of off) await runner.query(`SET LOCAL ${setting} = off`);
    const rows: unknown[] = await runner.query(statement.text, pendingLoginValues(logins));
    await runner.query('COMMIT');
    return rows.length;
  } catch (error) {
    await runner.query('ROLLBACK');
    throw error;
  }
}

/** Resolves once the session `waiting` waits on a lock (its statement has reached a held card). */
async function waitingOnLock(waiting: Session, observer: Session): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [row] = await observer.runner.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [waiting.pid]);
    if (row?.wait_event_type === 'Lock') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the statement never waited on the held card');
}
