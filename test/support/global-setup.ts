import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { EMBEDDED_OPTIONS, EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { runMigrations } from '../../src/database/migrate';
import { EMBEDDED_DUMP_ENV } from './embedded-pool';
import { EMBEDDED_TEMPLATE_ENV, PG_TEMPLATE_ENV, quoteIdent, runDatabasePrefix, withDatabase, withPg } from './stores';

/** Names this run in the databases it makes (the Jest main process id: unique among live runs of a host). */
export const RUN_ID_ENV = 'CK_TEST_RUN_ID';

/**
 * Once per run, before any e2e worker starts, provides one migrated template that every test app
 * starts from (test/support/stores.ts): an embedded data directory that each app copies (about
 * 0.3 s instead of 6 s of migrations; kept between runs, see embeddedTemplate), or, with
 * DATABASE_URL, a template database next to the one it names, which each app clones with
 * CREATE DATABASE … TEMPLATE (the role needs CREATEDB).
 */
export default async function globalSetup(): Promise<void> {
  const runId = process.pid.toString(36);
  process.env[RUN_ID_ENV] = runId;
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    await dropLeftovers(databaseUrl);
    const template = runDatabasePrefix(databaseUrl, runId);
    await withPg(databaseUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(template)}`)).catch((error: Error) => {
      throw new Error(
        `cannot create the test template database ${template} (the DATABASE_URL role needs CREATEDB): ${error.message}`,
      );
    });
    await migrate({ url: withDatabase(databaseUrl, template) }, true);
    process.env[PG_TEMPLATE_ENV] = template;
    return;
  }
  const template = await embeddedTemplate();
  process.env[EMBEDDED_TEMPLATE_ENV] = template.dataDir;
  process.env[EMBEDDED_DUMP_ENV] = template.dump;
}

const ROOT = join(__dirname, '..', '..');
const CACHE_DIR = join(tmpdir(), 'ck-test-templates');
const CACHE_KEEP_MS = 3600_000;

/**
 * The migrated embedded data directory for the migrations of this checkout. It is kept between runs
 * in the temporary directory, named by a digest of everything that shapes it (the migrations, the
 * code that runs them and starts PGlite, the PGlite version): a run after a change to any of them
 * migrates a new one. Test apps only ever copy it.
 */
async function embeddedTemplate(): Promise<{ dataDir: string; dump: string }> {
  const digest = createHash('sha256');
  const inputs = [
    ...readdirSync(join(ROOT, 'migrations'))
      .sort()
      .map((name) => join(ROOT, 'migrations', name)),
    join(ROOT, 'src', 'database', 'migrate.ts'),
    join(ROOT, 'src', 'database', 'embedded-postgres.ts'),
    join(ROOT, 'src', 'login-logs', 'log-partitions.ts'),
    __filename,
    join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
  ];
  for (const file of inputs) digest.update(file.slice(ROOT.length)).update('\0').update(readFileSync(file)).update('\0');
  // The migration makes the login log's partitions of this month and the next: a new month, a new template.
  digest.update(new Date().toISOString().slice(0, 7));
  const key = digest.digest('hex').slice(0, 16);
  const cached = join(CACHE_DIR, key);
  const made = { dataDir: join(cached, 'pgdata'), dump: join(cached, DUMP_FILE) };
  mkdirSync(CACHE_DIR, { recursive: true });
  pruneTemplates(key);
  if (existsSync(made.dump)) {
    utimesSync(cached, new Date(), new Date()); // in use: not pruned by another run
    return made;
  }
  const dataDir = mkdtempSync(join(CACHE_DIR, `${key}.tmp-`));
  try {
    const embedded = new EmbeddedPostgres();
    const target = await embedded.start(dataDir);
    try {
      await migrate({ ...target, username: 'postgres', database: 'postgres' }, false);
    } finally {
      await embedded.stop();
    }
    await dumpDataDir(join(dataDir, 'pgdata'), join(dataDir, DUMP_FILE));
    try {
      renameSync(dataDir, cached);
    } catch {
      rmSync(dataDir, { recursive: true, force: true }); // a concurrent run made it first
    }
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return made;
}

/** The same data directory as one file, for the test workers' in-memory databases (embedded-pool.ts). */
const DUMP_FILE = 'pgdata.tar';

async function dumpDataDir(dataDir: string, file: string): Promise<void> {
  const db = await PGlite.create(dataDir, EMBEDDED_OPTIONS);
  try {
    writeFileSync(file, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** Removes templates of other migrations (and failed attempts) that no run used for an hour. */
function pruneTemplates(keep: string): void {
  for (const name of readdirSync(CACHE_DIR)) {
    if (name === keep) continue;
    const path = join(CACHE_DIR, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > CACHE_KEEP_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed meanwhile by another run
    }
  }
}

async function migrate(target: object, shared: boolean): Promise<void> {
  // On PostgreSQL runMigrations holds an advisory lock on one connection while migrating on another.
  const dataSource = new DataSource({ type: 'postgres', ...target, poolSize: shared ? 2 : 1, migrations: MIGRATIONS });
  try {
    await dataSource.initialize();
    await runMigrations(dataSource, shared);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

/** Databases of earlier runs on this host that were killed before their teardown (their process is gone). */
async function dropLeftovers(databaseUrl: string): Promise<void> {
  const prefix = runDatabasePrefix(databaseUrl, '');
  await withPg(databaseUrl, async (client) => {
    const rows: Array<{ datname: string }> = await client.query(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) {
      const runId = /^([0-9a-z]+)(_[0-9a-z]+_[0-9a-f]+)?$/.exec(datname.slice(prefix.length))?.[1];
      if (runId === undefined || isAlive(parseInt(runId, 36))) continue;
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`).catch(() => undefined);
    }
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
