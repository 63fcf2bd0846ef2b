/**
 * The login log is partitioned by calendar month of `created_at` in UTC (docs/decisions.md "Login
 * log partitions"): `login_logs_pYYYY_MM` for each month, and `login_logs_default` for a row outside
 * every month made so far. These functions keep the months ahead made and drop the months past the
 * retention for the maintenance service (the migration that partitioned the table keeps its own frozen copy).
 */
import type { Sql } from '../database/sql';

/** Months made ahead of the current one, so that rows never wait on the maintenance. */
export const MONTHS_AHEAD = 2;

export const DEFAULT_PARTITION = 'login_logs_default';

/**
 * The transaction-scoped advisory lock the maintenance takes (any fixed number): instances sharing a
 * database take turns, and a backup holds it shared while it reads the log, so no month is dropped then.
 */
export const LOG_PARTITIONS_LOCK_ID = 7_311_043;

/** The first instant of the UTC month `offset` months after the one of `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

export function partitionName(month: Date): string {
  return `login_logs_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month a partition's name stands for, or null for a table that is not a month partition. */
export function monthOfPartition(name: string): Date | null {
  const match = /^login_logs_p(\d{4})_(\d{2})$/.exec(name);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : null;
}

/** The month partitions that exist, oldest first. */
export async function monthPartitions(sql: Sql): Promise<Array<{ name: string; month: Date }>> {
  const rows = await sql(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'login_logs'::regclass ORDER BY 1`,
  );
  return rows.flatMap((row) => {
    const month = monthOfPartition(String(row.name));
    return month ? [{ name: String(row.name), month }] : [];
  });
}

/**
 * Makes the partition of every month from `from` to MONTHS_AHEAD months after `now` that is missing.
 * Rows of such a month already in the default partition (the service was down for months, or a clock
 * ran ahead) move into the new partition, so none is lost or counted twice. Run it in a transaction
 * (the move and the attach must be one). Returns the partitions made.
 */
export async function ensureMonthPartitions(sql: Sql, now: Date, from: Date = monthStart(now)): Promise<string[]> {
  const existing = new Set((await monthPartitions(sql)).map((p) => p.name));
  const made: string[] = [];
  for (let month = monthStart(from); month <= monthStart(now, MONTHS_AHEAD); month = monthStart(month, 1)) {
    const name = partitionName(month);
    if (existing.has(name)) continue;
    const bounds = [month.toISOString(), monthStart(month, 1).toISOString()];
    const range = `FROM ('${bounds[0]}') TO ('${bounds[1]}')`;
    const [{ stray }] = await sql(
      `SELECT EXISTS (SELECT 1 FROM ${DEFAULT_PARTITION} WHERE created_at >= $1 AND created_at < $2) AS stray`,
      bounds,
    );
    if (!stray) {
      await sql(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF login_logs FOR VALUES ${range}`);
    } else {
      await sql(`CREATE TABLE ${name} (LIKE login_logs INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await sql(
        `WITH moved AS (DELETE FROM ${DEFAULT_PARTITION} WHERE created_at >= $1 AND created_at < $2 RETURNING *)
         INSERT INTO ${name} SELECT * FROM moved`,
        bounds,
      );
      await sql(`ALTER TABLE login_logs ATTACH PARTITION ${name} FOR VALUES ${range}`);
    }
    made.push(name);
  }
  return made;
}

/**
 * Card-login rows a retention removes are added to login_dropped_counts, so that totals can leave
 * them out; the request log's other rows (with a route) were never counted (migration 1766310000000).
 */
const RECORD_DROPPED = 'INSERT INTO login_dropped_counts AS d (project_id, interface, result_code, count)';
const ADD_DROPPED =
  'ORDER BY 1, 2, 3 ON CONFLICT (project_id, interface, result_code) DO UPDATE SET count = d.count + EXCLUDED.count';

/**
 * Drops the month partitions that ended more than `months` months before `now`'s month began (so a
 * retention of 12 keeps the current month and the 12 before it), and the default partition's rows
 * older than the oldest month kept. Daily counts stay: statistics outlive the rows; what was dropped
 * is recorded per project, interface and result (login_dropped_counts). Returns the partitions dropped.
 */
export async function dropExpiredPartitions(sql: Sql, now: Date, months: number): Promise<string[]> {
  if (months <= 0) return [];
  const oldestKept = monthStart(now, -months);
  const dropped: string[] = [];
  for (const { name, month } of await monthPartitions(sql)) {
    if (month >= oldestKept) continue;
    await sql(
      `${RECORD_DROPPED} SELECT project_id, interface, result_code, count(*) FROM ${name} WHERE route IS NULL GROUP BY 1, 2, 3 ${ADD_DROPPED}`,
    );
    await sql(`DROP TABLE ${name}`);
    dropped.push(name);
  }
  await sql(
    `WITH gone AS (DELETE FROM ${DEFAULT_PARTITION} WHERE created_at < $1 RETURNING project_id, interface, result_code, route)
     ${RECORD_DROPPED} SELECT project_id, interface, result_code, count(*) FROM gone WHERE route IS NULL GROUP BY 1, 2, 3 ${ADD_DROPPED}`,
    [oldestKept.toISOString()],
  );
  return dropped;
}
