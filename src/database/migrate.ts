import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations';

// Any fixed number: instances starting together take turns running migrations.
const MIGRATION_LOCK_ID = 7_311_042;

/**
 * Runs pending migrations. On a shared PostgreSQL instances that start together take turns: one
 * transaction of its own holds a transaction-scoped advisory lock while the migrations run on other
 * connections, and its end releases the lock whatever happens. A session lock cannot be used: behind
 * PgBouncer in transaction mode the unlock lands on another server connection, fails unseen, and the
 * lock stays on a pooled connection that the pooler hands to later clients, so every later start
 * hangs. A lock-holding transaction keeps its server connection until it ends, and a process that
 * dies ends it. The embedded database has one connection and one instance, so it needs none.
 */
export async function runMigrations(
  dataSource: DataSource,
  shared: boolean,
  beforeMigrating?: BeforeMigrating,
): Promise<string[]> {
  if (!shared) return runPending(dataSource, beforeMigrating);
  const holder = dataSource.createQueryRunner();
  await holder.connect();
  try {
    await holder.startTransaction();
    // Raw: advisory locks are PostgreSQL functions.
    await holder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    const ran = await runPending(dataSource, beforeMigrating);
    await holder.commitTransaction();
    return ran;
  } finally {
    if (holder.isTransactionActive) await holder.rollbackTransaction().catch(() => undefined);
    await holder.release();
  }
}

/** Called once, under the migrations' lock, when there are migrations to run: the start's backup before an upgrade. */
export type BeforeMigrating = (dataSource: DataSource) => Promise<void>;

/** The names of the migrations run. */
async function runPending(dataSource: DataSource, beforeMigrating?: BeforeMigrating): Promise<string[]> {
  if (beforeMigrating && (await dataSource.showMigrations())) await beforeMigrating(dataSource);
  const ran = await dataSource.runMigrations({ transaction: 'each' });
  return ran.map((migration) => migration.name);
}

/**
 * Runs the migrations over a connection of their own (MIGRATION_DATABASE_URL), under the same lock,
 * and closes it: the service's pool, through a pooler or with a role that cannot change the schema,
 * never runs DDL.
 */
export async function runMigrationsOver(url: string, beforeMigrating?: BeforeMigrating): Promise<string[]> {
  const migrator = await new DataSource({
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    installExtensions: false,
    poolSize: 2,
    logging: false,
  }).initialize();
  try {
    return await runMigrations(migrator, true, beforeMigrating);
  } finally {
    await migrator.destroy();
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
