import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import { fail, Finding, ok, safeMessage, warn } from './finding';

/** How far behind the replica may replay before the doctor warns: the admin lists read there would be that stale. */
export const REPLICA_LAG_WARN_SECONDS = 10;

/**
 * DATABASE_READ_URL answers, is a standby (in recovery, not a second primary), and replays what it
 * receives without falling far behind: caught up when it has replayed all it received, else the
 * age of the last transaction it replayed.
 */
export async function checkReplica(config: AppConfig, warnAfterSeconds = REPLICA_LAG_WARN_SECONDS): Promise<Finding[]> {
  const replica = new DataSource({
    type: 'postgres',
    url: config.DATABASE_READ_URL!,
    poolSize: 1,
    extra: { connectionTimeoutMillis: 5000 },
  });
  try {
    await replica.initialize();
    // Raw: PostgreSQL's recovery functions, on the replica itself.
    const [state] = (await replica.query(
      `SELECT pg_is_in_recovery() AS standby,
        pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() AS caught_up,
        extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS lag_seconds`,
    )) as Array<{ standby: boolean; caught_up: boolean; lag_seconds: number | null }>;
    if (!state.standby)
      return [
        fail(
          'replica',
          'DATABASE_READ_URL is not a standby (it is not in recovery)',
          'point DATABASE_READ_URL at a streaming replica of DATABASE_URL',
        ),
      ];
    if (state.caught_up) return [ok('replica', 'a standby, caught up with what it received')];
    const lag = state.lag_seconds ?? 0;
    if (lag > warnAfterSeconds)
      return [
        warn(
          'replica',
          `a standby ${lag.toFixed(1)} s behind: the admin lists read there are that stale`,
          'check the replica (replay paused? disk? network), or unset DATABASE_READ_URL until it catches up',
        ),
      ];
    return [ok('replica', `a standby, ${lag.toFixed(1)} s behind`)];
  } catch (error) {
    return [
      fail(
        'replica',
        `cannot be read: ${safeMessage(error)}`,
        'check DATABASE_READ_URL (host, port, user, database) and that the standby runs',
      ),
    ];
  } finally {
    if (replica.isInitialized) await replica.destroy();
  }
}
