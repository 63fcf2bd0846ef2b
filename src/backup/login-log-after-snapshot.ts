import { LOG_PARTITIONS_LOCK_ID } from '../login-logs/log-partitions';
import type { Sql } from '../database/sql';

/** The log table read after the snapshot rather than in it: append-only, and most of the rows. */
export const LATE_LOG_TABLE = 'login_logs';
/** Rows per page of the late read: each page is a statement of its own, with a snapshot of its own. */
const PAGE_ROWS = 5000;
/**
 * How long the instant's lock waits for the log writes under way (logins queue behind it meanwhile,
 * so briefly: a login's own transaction takes milliseconds), how often, and the pause between tries,
 * when the logins go on.
 */
export interface LockPatience {
  waitMs: number;
  tries: number;
  pauseMs: number;
}
const PATIENCE: LockPatience = { waitMs: 200, tries: 5, pauseMs: 1000 };

/**
 * A snapshot held for the whole backup costs every login more the longer it lives: PostgreSQL keeps
 * each version of a card that logs in meanwhile, and each login walks them. The login log is most of
 * the rows and is only ever appended to, so it need not be read under the snapshot: a second session
 * blocks the log's writes for the instant the snapshot begins (a SHARE lock waits for the ones under
 * way and holds the next), so every row with an id up to the snapshot's highest is committed and in
 * it, and none above is. Those rows are then read in short keyset pages after the snapshot has ended.
 *
 * The session also holds the partition maintenance's lock, shared, until the read ends: the
 * retention cannot drop a month between the snapshot (which holds its dropped counts) and the read.
 * Returns null on a standby, or when the instant's lock was not had (busy, or not the role's to
 * take): the caller reads the log in the snapshot.
 */
export class LoginLogAfterSnapshot {
  private constructor(
    private readonly beside: Sql,
    private readonly lastId: string | null,
  ) {}

  /**
   * Runs `beginSnapshot` (which must start the snapshot and return the log's highest id read in it)
   * while the log's writes are held, then lets them go.
   */
  static async hold(
    beside: Sql,
    beginSnapshot: () => Promise<string | null>,
    patience = PATIENCE,
  ): Promise<LoginLogAfterSnapshot | null> {
    // A standby takes no locks that hold writes, and its snapshot holds nothing back on the primary.
    const [{ standby }] = await beside('SELECT pg_is_in_recovery() AS standby');
    if (standby) return null;
    // Raw: transaction-scoped advisory and table locks, PostgreSQL's own.
    await beside('BEGIN');
    try {
      await beside('SELECT pg_advisory_xact_lock_shared($1)', [LOG_PARTITIONS_LOCK_ID]);
      for (let attempt = 1; attempt <= patience.tries; attempt++) {
        await beside('SAVEPOINT log_writes_held');
        try {
          await beside(`SET LOCAL lock_timeout = ${Math.round(patience.waitMs)}`);
          await beside(`LOCK TABLE ${LATE_LOG_TABLE} IN SHARE MODE`);
        } catch (error) {
          const code = (error as { code?: string }).code;
          // A role that may only read (a backup account) may not take this lock: read the log in the snapshot.
          if (code === PERMISSION_DENIED) break;
          if (code !== LOCK_TIMEOUT) throw error;
          await beside('ROLLBACK TO SAVEPOINT log_writes_held');
          await new Promise((resolve) => setTimeout(resolve, patience.pauseMs));
          continue;
        }
        try {
          return new LoginLogAfterSnapshot(beside, await beginSnapshot());
        } finally {
          // Rolling back to the savepoint lets the lock go and keeps the advisory one.
          await beside('ROLLBACK TO SAVEPOINT log_writes_held');
        }
      }
    } catch (error) {
      await beside('ROLLBACK').catch(() => undefined);
      throw error;
    }
    await beside('ROLLBACK');
    return null;
  }

  /** Writes the log's rows up to the snapshot's highest id, oldest first; returns how many. */
  async read(write: (text: string) => Promise<void>): Promise<number> {
    const last = this.lastId;
    let rows = 0;
    try {
      let after = '0';
      while (last !== null) {
        // Raw: a keyset page of PostgreSQL's own JSON of each row, as the snapshot's tables are read.
        const page = await this.beside(
          `SELECT t.id::text AS id, row_to_json(t)::text AS line FROM ${LATE_LOG_TABLE} t
            WHERE t.id > $1 AND t.id <= $2 ORDER BY t.id LIMIT ${PAGE_ROWS}`,
          [after, last],
        );
        if (!page.length) break;
        await write(page.map((row) => `${String(row.line)}\n`).join(''));
        rows += page.length;
        after = String(page[page.length - 1].id);
      }
      await this.beside('COMMIT');
    } catch (error) {
      await this.beside('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return rows;
  }

  /** Ends the session's transaction without reading (the snapshot failed). */
  async abandon(): Promise<void> {
    await this.beside('ROLLBACK').catch(() => undefined);
  }
}

const LOCK_TIMEOUT = '55P03';
const PERMISSION_DENIED = '42501';
