import { BatchStatement, StatementBatcher } from './statement-batcher';

/** A statement that records each batch it is sent and answers each item doubled, after `hold` resolves. */
function recorder(options: Partial<BatchStatement<number, number>> & { hold?: () => Promise<void> } = {}) {
  const batches: number[][] = [];
  let running = 0;
  let mostRunning = 0;
  const statement: BatchStatement<number, number> = {
    keyOf: options.keyOf,
    gatherMs: options.gatherMs,
    maxBatch: options.maxBatch,
    run:
      options.run ??
      (async (items) => {
        batches.push(items);
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        await (options.hold?.() ?? Promise.resolve());
        running -= 1;
        return items.map((item) => item * 2);
      }),
  };
  return { batches, statement, mostRunning: () => mostRunning };
}

const sqlError = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });

describe(StatementBatcher.name, () => {
  it('sends the requests of one event-loop turn in one statement and answers each with its own result', async () => {
    const { batches, statement } = recorder();
    const batcher = new StatementBatcher(statement);
    expect(await Promise.all([1, 2, 3].map((n) => batcher.submit(n)))).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('sends a lone request on its own, without waiting for company', async () => {
    const { batches, statement } = recorder();
    const batcher = new StatementBatcher(statement);
    expect(await batcher.submit(7)).toBe(14);
    expect(await batcher.submit(8)).toBe(16);
    expect(batches).toEqual([[7], [8]]);
  });

  it('never puts two requests with one key in one statement; the oldest go first', async () => {
    const { batches, statement } = recorder({ keyOf: (n) => String(n % 10) });
    const batcher = new StatementBatcher(statement);
    await Promise.all([1, 11, 2, 21, 3].map((n) => batcher.submit(n)));
    expect(batches).toEqual([[1, 2, 3], [11], [21]]);
  });

  it('sends keyed requests in key order (rows locked in one order by every statement), each still answered with its own result', async () => {
    const { batches, statement } = recorder({ keyOf: (n) => String(n % 10) });
    const batcher = new StatementBatcher(statement);
    expect(await Promise.all([3, 1, 13, 2, 11].map((n) => batcher.submit(n)))).toEqual([6, 2, 26, 4, 22]);
    expect(batches).toEqual([
      [1, 2, 3],
      [11, 13],
    ]);
  });

  it('has at most two statements under way and at most 64 requests in one; the rest wait for the next', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { batches, statement, mostRunning } = recorder({ hold: () => gate });
    const batcher = new StatementBatcher(statement);
    const all = Promise.all(Array.from({ length: 200 }, (_, n) => batcher.submit(n)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches.map((batch) => batch.length)).toEqual([64, 64]);
    release();
    expect(await all).toEqual(Array.from({ length: 200 }, (_, n) => n * 2));
    expect(batches.map((batch) => batch.length)).toEqual([64, 64, 64, 8]);
    expect(mostRunning()).toBe(2);
  });

  it('retries a statement PostgreSQL refused one request at a time: only the faulty request fails', async () => {
    const batcher = new StatementBatcher<number, number>({
      run: async (items) => {
        if (items.includes(13)) throw sqlError('22001');
        return items.map((item) => item * 2);
      },
    });
    const outcomes = await Promise.allSettled([12, 13, 14].map((n) => batcher.submit(n)));
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 24 },
      { status: 'rejected', reason: expect.objectContaining({ code: '22001' }) },
      { status: 'fulfilled', value: 28 },
    ]);
  });

  it('retries nothing after a lost connection (the statement may have committed): every request fails', async () => {
    for (const fault of [sqlError('08006'), sqlError('57P01'), new Error('Connection terminated unexpectedly')]) {
      let calls = 0;
      const batcher = new StatementBatcher<number, number>({
        run: async () => {
          calls += 1;
          throw fault;
        },
      });
      const outcomes = await Promise.allSettled([1, 2, 3].map((n) => batcher.submit(n)));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(calls).toBe(1);
    }
  });

  describe('with a gathering window (rows nobody waits for)', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('lets requests of many event-loop turns share one statement, sent once the window has passed', async () => {
      const { batches, statement } = recorder({ gatherMs: 60 });
      const batcher = new StatementBatcher(statement);
      const answers = [batcher.submit(1)];
      await sleep(10);
      answers.push(batcher.submit(2));
      await sleep(10);
      answers.push(batcher.submit(3));
      expect(batches).toEqual([]);
      expect(await Promise.all(answers)).toEqual([2, 4, 6]);
      expect(batches).toEqual([[1, 2, 3]]);
    });

    it('sends a full batch at once, without waiting for the window', async () => {
      const { batches, statement } = recorder({ gatherMs: 10_000, maxBatch: 3 });
      const batcher = new StatementBatcher(statement);
      expect(await Promise.all([1, 2, 3].map((n) => batcher.submit(n)))).toEqual([2, 4, 6]);
      expect(batches).toEqual([[1, 2, 3]]);
    });

    it('on drain sends what is gathering, then every request as it comes', async () => {
      const { batches, statement } = recorder({ gatherMs: 10_000 });
      const batcher = new StatementBatcher(statement);
      const gathered = Promise.all([batcher.submit(1), batcher.submit(2)]);
      await batcher.drain();
      expect(batches).toEqual([[1, 2]]);
      expect(await gathered).toEqual([2, 4]);
      expect(await batcher.submit(3)).toBe(6);
      expect(batches).toEqual([[1, 2], [3]]);
    });
  });
});
