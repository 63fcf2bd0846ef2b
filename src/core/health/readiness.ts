import { mkdir, open, rm, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';

/** How Redis keeps what it holds across a restart: only `aof` keeps nonces, counters and quotas (docs/operations.md). */
export type RedisPersistence = 'aof' | 'rdb' | 'none' | 'unknown';

/**
 * A durable write without a table: a transaction that takes a transaction id writes and flushes a
 * commit record, which a standby or a database that cannot write its WAL refuses where `SELECT 1`
 * would still answer; a database set read-only is refused by name.
 */
export async function databaseTakesWrite(dataSource: DataSource): Promise<void> {
  const [row] = (await dataSource.query(
    `SELECT pg_current_xact_id()::text AS xid, current_setting('transaction_read_only') AS read_only`,
  )) as Array<{ read_only: string }>;
  if (row?.read_only !== 'off') throw new Error('the database is read-only');
}

/** Writes, flushes and removes a small file in `dir`: a full, read-only or missing disk throws. */
export async function directoryTakesWrite(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `.ready-${process.pid}`);
  const handle = await open(file, 'w');
  try {
    await handle.writeFile('ready\n');
    await handle.sync();
  } finally {
    await handle.close();
    await rm(file, { force: true });
  }
}

/** Free space for this process's user on the file system that holds `dir`, in MiB. */
export async function freeMiB(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return (stats.bavail * stats.bsize) / (1024 * 1024);
}

/**
 * What Redis does with its data on a restart. AOF keeps every write; RDB snapshots lose what came
 * after the last one (nonces accepted again, failure counters and quotas reset); none loses all.
 * A managed Redis that refuses CONFIG still reports AOF through INFO.
 */
export async function redisPersistence(redis: Redis): Promise<RedisPersistence> {
  if (/^aof_enabled:1\s*$/m.test(await redis.info('persistence'))) return 'aof';
  try {
    const [, save] = (await redis.config('GET', 'save')) as string[];
    return save?.trim() ? 'rdb' : 'none';
  } catch {
    return 'unknown';
  }
}

/** The warning an operator sees at start and in readiness, or null when Redis persists every write. */
export function redisPersistenceWarning(persistence: RedisPersistence): string | null {
  if (persistence === 'aof') return null;
  const what = { rdb: 'only snapshots (RDB)', none: 'no persistence', unknown: 'a persistence that could not be read' }[
    persistence
  ];
  return `Redis has ${what}: a restart forgets nonces, failure counters and quotas. Turn on AOF (appendonly yes) in production (docs/operations.md)`;
}
