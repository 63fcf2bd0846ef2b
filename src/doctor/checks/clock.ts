import { fail, Finding, ok, Queryable, warn } from './finding';

/** Clock difference with the database past which a warning is given, and past which signed timestamps (±300 s) go wrong. */
export const CLOCK_WARN_MS = 5_000;
export const CLOCK_FAIL_MS = 300_000;

/** The service's clock against the database's: expiry, quotas and signed timestamps mix the two. */
export async function checkClock(dataSource: Queryable, now: () => number = Date.now): Promise<Finding[]> {
  const before = now();
  // Raw: clock_timestamp() is the database's own clock, which no repository call reads.
  const [row] = (await dataSource.query(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`)) as Array<{
    ms: number;
  }>;
  const after = now();
  const skew = Math.round(Number(row.ms) - (before + after) / 2);
  const words = `${Math.abs(skew / 1000).toFixed(1)} s ${skew > 0 ? 'behind' : 'ahead of'} the database`;
  const fix = 'run NTP (chrony or systemd-timesyncd) on the service and database hosts';
  if (Math.abs(skew) > CLOCK_FAIL_MS)
    return [fail('clock', `${words}: beyond the ±300 s that signed requests are accepted in`, fix)];
  if (Math.abs(skew) > CLOCK_WARN_MS) return [warn('clock', words, fix)];
  return [ok('clock', `within ${CLOCK_WARN_MS / 1000} s of the database`)];
}
