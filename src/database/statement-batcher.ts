/** How a batcher sends its requests: one statement for many, its answers in the requests' order. */
export interface BatchStatement<I, R> {
  run(items: I[]): Promise<R[]>;
  /** Requests with the same key never share a statement (e.g. two writes of one row). */
  keyOf?(item: I): string;
}

/** Most requests in one statement: past it, the rest wait for the next one. */
const MAX_BATCH = 64;
/** Statements under way at once: the requests that arrive meanwhile gather for the next. */
const MAX_IN_FLIGHT = 2;

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * An error PostgreSQL answered for the statement (so it did not commit), as opposed to a lost
 * connection (SQLSTATE class 08, an administrator's shutdown 57P, or no SQLSTATE), after which a
 * write may have committed: only the first kind is retried request by request.
 */
export function refusedByStatement(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08') && !code.startsWith('57P');
}

/**
 * Group commit for hot statements: the requests that arrive in the same turn of the event loop, or
 * while earlier statements are under way, share one statement (and, for a write, one commit). Each
 * is answered only when its statement has finished, so a write is never answered before it has
 * committed. An idle service sends a lone request at the end of its turn: no added wait at low load.
 * A statement that PostgreSQL refuses is retried one request at a time, so that one request's fault
 * never becomes another's.
 */
export class StatementBatcher<I, R> {
  private readonly queue: Array<Pending<I, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly statement: BatchStatement<I, R>) {}

  submit(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(this.pump);
    });
  }

  private readonly pump = (): void => {
    this.scheduled = false;
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.takeBatch();
      this.inFlight += 1;
      void this.flush(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  };

  /**
   * Up to MAX_BATCH requests of distinct keys, the oldest; the others keep their place. Keyed
   * requests go in key order, so that two statements under way at once lock their rows in the same
   * order (a statement locks its rows one request after the other): had one taken card A then B and
   * the other B then A, each could hold the lock the other waits for, a deadlock that PostgreSQL
   * breaks only after a second.
   */
  private takeBatch(): Array<Pending<I, R>> {
    const keyOf = this.statement.keyOf;
    if (!keyOf) return this.queue.splice(0, MAX_BATCH);
    const batch = new Map<string, Pending<I, R>>();
    for (let index = 0; index < this.queue.length && batch.size < MAX_BATCH;) {
      const key = keyOf(this.queue[index].item);
      if (batch.has(key)) {
        index += 1;
        continue;
      }
      batch.set(key, this.queue.splice(index, 1)[0]);
    }
    return [...batch.keys()].sort().map((key) => batch.get(key)!);
  }

  private async flush(batch: Array<Pending<I, R>>): Promise<void> {
    try {
      const results = await this.statement.run(batch.map((pending) => pending.item));
      batch.forEach((pending, index) => pending.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1 || !refusedByStatement(error)) return batch.forEach((pending) => pending.reject(error));
      for (const pending of batch) {
        await this.statement.run([pending.item]).then(([result]) => pending.resolve(result), pending.reject);
      }
    }
  }
}
