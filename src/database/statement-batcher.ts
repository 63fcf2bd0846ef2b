/** How a batcher sends its requests: one statement for many, its answers in the requests' order. */
export interface BatchStatement<I, R> {
  run(items: I[]): Promise<R[]>;
  /** Requests with the same key never share a statement (e.g. two writes of one row). */
  keyOf?(item: I): string;
  /**
   * For writes nobody waits for (the request log's rows): how long the first request waits for
   * company before its statement goes, so that many share one statement and one commit.
   * Unset: it goes at the end of its event-loop turn.
   */
  gatherMs?: number;
  /** Most requests in one statement (64 unless set); a full batch goes at once, whatever gatherMs says. */
  maxBatch?: number;
}

/** Most requests in one statement unless the statement says otherwise: past it, the rest wait for the next one. */
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
  private gathering: NodeJS.Timeout | null = null;
  /** Requests whose time came while MAX_IN_FLIGHT statements were under way: they go when one finishes. */
  private overdue = false;
  private closing = false;
  private readonly maxBatch: number;
  private readonly idle: Array<() => void> = [];

  constructor(private readonly statement: BatchStatement<I, R>) {
    this.maxBatch = statement.maxBatch ?? MAX_BATCH;
  }

  submit(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.scheduled) return;
      const gatherMs = this.gatherMs();
      if (gatherMs === undefined || this.queue.length >= this.maxBatch) {
        this.scheduled = true;
        setImmediate(this.pump);
      } else {
        // unref: a gathering batch does not keep a finished process alive (shutdown drains it).
        this.gathering ??= setTimeout(this.pump, gatherMs).unref();
      }
    });
  }

  /**
   * Before shutting down: sends what is gathering, and from now on every request as it comes (the
   * requests still finishing would otherwise gather past the database's close). Resolves once
   * nothing is queued or under way.
   */
  drain(): Promise<void> {
    this.closing = true;
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle.push(resolve);
      this.pump();
    });
  }

  /** Sends now as many batches as may be under way; what is left is due when a statement finishes. */
  private readonly pump = (): void => {
    this.scheduled = false;
    if (this.gathering) clearTimeout(this.gathering);
    this.gathering = null;
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.takeBatch();
      this.inFlight += 1;
      void this.flush(batch).finally(() => {
        this.inFlight -= 1;
        this.afterStatement();
      });
    }
    this.overdue = this.queue.length > 0;
    this.notifyIfIdle();
  };

  /**
   * Without a gathering window, what arrived meanwhile goes now. With one, only what is overdue or a
   * full batch goes: the rest waits for its window, so a batch that went is not followed by a small one.
   */
  private afterStatement(): void {
    const gatherMs = this.gatherMs();
    if (gatherMs === undefined || this.overdue || this.queue.length >= this.maxBatch) return this.pump();
    if (this.queue.length > 0) this.gathering ??= setTimeout(this.pump, gatherMs).unref();
    this.notifyIfIdle();
  }

  private gatherMs(): number | undefined {
    return this.closing ? undefined : this.statement.gatherMs;
  }

  private notifyIfIdle(): void {
    if (this.queue.length === 0 && this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
  }

  /**
   * Up to maxBatch requests of distinct keys, the oldest; the others keep their place. Keyed
   * requests go in key order, so that two statements under way at once lock their rows in the same
   * order (a statement locks its rows one request after the other): had one taken card A then B and
   * the other B then A, each could hold the lock the other waits for, a deadlock that PostgreSQL
   * breaks only after a second.
   */
  private takeBatch(): Array<Pending<I, R>> {
    const keyOf = this.statement.keyOf;
    if (!keyOf) return this.queue.splice(0, this.maxBatch);
    const batch = new Map<string, Pending<I, R>>();
    for (let index = 0; index < this.queue.length && batch.size < this.maxBatch;) {
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
