import type { QueryRunner } from 'typeorm';

/**
 * Whether the caller's transaction now holds the advisory lock `lockId` (held until it ends; false
 * at once when another transaction holds it): the turn of a job that one instance of a deployment
 * runs at a time. Raw: an advisory lock is a PostgreSQL function.
 */
export async function tryTransactionLock(db: Pick<QueryRunner, 'query'>, lockId: number): Promise<boolean> {
  const [{ locked }] = (await db.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [lockId])) as Array<{ locked: boolean }>;
  return locked;
}
