import { EntityManager } from 'typeorm';
import { StatsItem } from './login-log.view';

/**
 * Counts per local day of APP_TIMEZONE, interface and result, from the daily counts that every log
 * write keeps (the login_logs_count trigger): the log itself is never scanned, and the counts outlive
 * the rows that a retention drops.
 */
const STATS_SQL = `
  SELECT to_char(day, 'YYYY-MM-DD') AS day, interface, result_code, sum(count)::integer AS count
  FROM login_daily_counts
  WHERE project_id = $1 AND day BETWEEN CAST($2 AS date) AND CAST($3 AS date)
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3`;

/**
 * The same counts per local day of another zone ($4), from the log rows themselves (decisions, "Login
 * statistics in the viewer's zone"): a count day of APP_TIMEZONE cannot be split into another zone's
 * days. Only rows without a route, as the counts' trigger; the window's instants bound the months read.
 */
const REZONED_STATS_SQL = `
  SELECT to_char((created_at AT TIME ZONE $4)::date, 'YYYY-MM-DD') AS day, interface, result_code, count(*)::integer AS count
  FROM login_logs
  WHERE project_id = $1 AND route IS NULL
    AND created_at >= (CAST($2 AS date)::timestamp AT TIME ZONE $4)
    AND created_at < ((CAST($3 AS date) + 1)::timestamp AT TIME ZONE $4)
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3`;

/** Rows written (login_daily_counts) less rows a retention dropped (login_dropped_counts). */
const COUNTED_TOTAL_SQL = `
  SELECT (SELECT coalesce(sum(count), 0) FROM login_daily_counts
           WHERE project_id = $1 AND ($2::text IS NULL OR interface = $2) AND ($3::integer IS NULL OR result_code = $3))
       - (SELECT coalesce(sum(count), 0) FROM login_dropped_counts
           WHERE project_id = $1 AND ($2::text IS NULL OR interface = $2) AND ($3::integer IS NULL OR result_code = $3)) AS total`;

/**
 * The login counts (`login_daily_counts`, `login_dropped_counts`) and the log's rows counted by day:
 * grouped sums the query builder would only wrap around the same SQL. Made per use with `on`, on the
 * primary's or a replica's manager.
 */
export class LoginCountsRepository {
  constructor(private readonly db: EntityManager) {}

  static on(db: EntityManager): LoginCountsRepository {
    return new LoginCountsRepository(db);
  }

  /** Per local day of APP_TIMEZONE, interface and result, between two days (inclusive). */
  perDay(projectId: string, from: string, to: string): Promise<StatsItem[]> {
    // Raw: grouped sums of the daily counters over their slots, days as text.
    return this.db.query(STATS_SQL, [projectId, from, to]) as Promise<StatsItem[]>;
  }

  /** The same in another zone, counted from the log's rows. */
  perDayIn(timeZone: string, projectId: string, from: string, to: string): Promise<StatsItem[]> {
    // Raw: grouped counts of the log's rows by local day of the asked zone, the window's instants bounding the partitions read.
    return this.db.query(REZONED_STATS_SQL, [projectId, from, to, timeZone]) as Promise<StatsItem[]>;
  }

  /** The project's log rows of this interface and result (null: any), from the counts its writes keep. */
  async total(projectId: string, iface: string | null, resultCode: number | null): Promise<number> {
    // Raw: sums over the daily and dropped counters, one less the other, in one statement.
    const [{ total }] = (await this.db.query(COUNTED_TOTAL_SQL, [projectId, iface, resultCode])) as Array<{ total: string }>;
    return Number(total);
  }
}
