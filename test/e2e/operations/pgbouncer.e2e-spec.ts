import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { startPgBouncer, PgBouncer } from '../../support/pgbouncer';
import { SignalledService, startSignalledService } from '../../support/service-process';
import { dropDatabase, PG_TEMPLATE_ENV, quoteIdent, withDatabase, withPg } from '../../support/stores';

const ENCRYPTION_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const ROUNDS = 3;
const INSTANCES = 5;

/**
 * Behind PgBouncer in transaction mode (decisions §25): instances started together on a fresh
 * database all become ready, round after round with the pooler kept between them (a rolling
 * deploy), and no advisory lock is left on the pooler's server connections. With a session lock
 * for the migrations some never became ready and locks stayed behind.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('behind PgBouncer in transaction mode (e2e)', () => {
  const direct = process.env.DATABASE_URL!;
  const name = `${process.env[PG_TEMPLATE_ENV] ?? 'ck'}_pgb${randomBytes(3).toString('hex')}`;
  let pooler: PgBouncer;

  beforeAll(async () => {
    await withPg(direct, (db) => db.query(`CREATE DATABASE ${quoteIdent(name)}`));
    pooler = await startPgBouncer(direct);
  });
  afterAll(async () => {
    await pooler?.stop();
    await dropDatabase(direct, name);
  });

  const advisoryLocks = (database: string) =>
    withPg(direct, async (db) => {
      const [{ held }] = await db.query(
        `SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = $1)`,
        [database],
      );
      return held as number;
    });

  const startRounds = async (database: string, extra: Record<string, string>, rounds: number) => {
    const env = {
      ...extra,
      DATABASE_URL: pooler.through(withDatabase(direct, database)),
      DATABASE_PREPARED_STATEMENTS: 'false',
      APP_ENCRYPTION_KEY: ENCRYPTION_KEY,
      ADMIN_PASSWORD: 'pgbouncer-admin-1',
    };
    for (let round = 1; round <= rounds; round++) {
      const started = Date.now();
      const outcomes = await Promise.allSettled(
        Array.from({ length: INSTANCES }, (_, i) => startSignalledService({ ...env, DATA_DIR: `/tmp/ck-pgb-${database}-${i}` })),
      );
      const ready = outcomes.filter((o): o is PromiseFulfilledResult<SignalledService> => o.status === 'fulfilled');
      process.stdout.write(`pgbouncer: round ${round}: ${ready.length} of ${INSTANCES} ready in ${Date.now() - started} ms\n`);
      await Promise.all(ready.map((outcome) => outcome.value.stop()));
      for (let i = 0; i < INSTANCES; i++) rmSync(`/tmp/ck-pgb-${database}-${i}`, { recursive: true, force: true });
      const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect({ round, failed: failed.map((f) => String(f.reason).slice(0, 2000)) }).toEqual({ round, failed: [] });
      expect({ round, locks: await advisoryLocks(database) }).toEqual({ round, locks: 0 });
    }
    // Each migration ran once: none twice at the same time.
    const [applied] = await withPg(withDatabase(direct, database), (db) =>
      db.query(`SELECT count(*)::int AS migrations, count(DISTINCT name)::int AS names FROM migrations`),
    );
    expect(applied.migrations).toBeGreaterThan(30);
    expect(applied.names).toBe(applied.migrations);
  };

  it(
    `starts ${INSTANCES} instances at once on a fresh database, ${ROUNDS} rounds, every one ready and no lock left`,
    () => startRounds(name, {}, ROUNDS),
    300_000,
  );

  // One round: the migrations run in the first, on the fresh database; the later rounds above test the pooler.
  it('runs the migrations over MIGRATION_DATABASE_URL, a direct connection, when it is set', async () => {
    const second = `${name}m`;
    await withPg(direct, (db) => db.query(`CREATE DATABASE ${quoteIdent(second)}`));
    try {
      await startRounds(second, { MIGRATION_DATABASE_URL: withDatabase(direct, second) }, 1);
    } finally {
      await dropDatabase(direct, second);
    }
  }, 300_000);
});
