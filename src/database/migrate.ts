import { DataSource } from 'typeorm';

// Any fixed number: instances starting together take turns running migrations.
const MIGRATION_LOCK_ID = 7_311_042;

/**
 * Runs pending migrations. On a shared PostgreSQL an advisory lock serialises instances that start
 * together; the embedded database has one connection and one instance, so it needs none.
 */
export async function runMigrations(dataSource: DataSource, shared: boolean): Promise<void> {
  if (!shared) {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    // Raw: advisory locks are PostgreSQL functions.
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    // Raw: advisory locks are PostgreSQL functions.
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * Throws unless every migration this release knows is recorded as applied: a schema dropped or
 * replaced under a running service fails readiness instead of every login.
 */
export async function assertSchemaCurrent(dataSource: DataSource): Promise<void> {
  const known = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  // Raw: TypeORM's own migrations table has no entity.
  const [{ applied }] = (await dataSource.query(`SELECT count(*)::int AS applied FROM migrations WHERE name = ANY($1::text[])`, [
    known,
  ])) as Array<{ applied: number }>;
  if (applied !== known.length) throw new Error(`${known.length - applied} of ${known.length} migrations are not applied`);
}
