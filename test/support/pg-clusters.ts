import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './service-process';
import { quoteIdent, withPg } from './stores';

const run = promisify(execFile);
/** Debian's newest installed PostgreSQL (the CI installs the distribution's), or PG_BIN_DIR; asked only when a cluster is made. */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const versions = readdirSync('/usr/lib/postgresql').map(Number).filter(Number.isFinite);
  return join('/usr/lib/postgresql', String(Math.max(...versions)), 'bin');
}

/**
 * Throw-away PostgreSQL 15 clusters for tests of replication and failover: each in its own temp
 * directory on a free port, trust authentication on 127.0.0.1 (replication included), run as the
 * `postgres` user when the test runs as root (PostgreSQL refuses root).
 */
export interface PgCluster {
  port: number;
  dataDir: string;
  /** A URL for `database` as `user` (trust: the password is never checked). */
  url(database: string, user?: string, password?: string): string;
  /** One statement as the superuser on a short connection. */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[], database?: string): Promise<T[]>;
  /** `immediate`: no shutdown checkpoint, as a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** A standby becomes a primary. */
  promote(): Promise<void>;
  log(): string;
  /** Stops it if it runs and removes its directory. */
  remove(): Promise<void>;
}

function owner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root needs a postgres user to run PostgreSQL');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function asOwner(command: string, args: string[]): Promise<string> {
  const user = owner();
  try {
    const { stdout } = await run(join(binDir(), command), args, { ...(user ?? {}), cwd: '/tmp', timeout: 60_000 });
    return stdout;
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${failed.stderr || failed.message}`);
  }
}

function ownedTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const user = owner();
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  return dir;
}

function cluster(dataDir: string, port: number): PgCluster {
  const logFile = `${dataDir}.log`;
  let running = true;
  const url = (database: string, user = 'postgres', password = 'unused') =>
    `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const self: PgCluster = {
    port,
    dataDir,
    url,
    sql: <T>(query: string, params: unknown[] = [], database = 'postgres') =>
      withPg(url(database), (db) => db.query(query, params) as Promise<T[]>),
    stop: async (mode = 'fast') => {
      if (!running) return;
      await asOwner('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
      running = false;
    },
    promote: async () => {
      await asOwner('pg_ctl', ['-D', dataDir, '-w', 'promote']);
    },
    log: () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
    remove: async () => {
      await self.stop('immediate').catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(logFile, { force: true });
    },
  };
  return self;
}

async function startServer(dataDir: string, port: number): Promise<PgCluster> {
  const logFile = `${dataDir}.log`;
  const user = owner();
  appendFileSync(logFile, '');
  if (user) chownSync(logFile, user.uid, user.gid);
  await asOwner('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
  return cluster(dataDir, port);
}

/** Settings of every cluster made here: small, local, quick to start, able to stream to a standby. */
function settings(port: number, socketDir: string): string {
  return [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${socketDir}'`,
    'wal_level = replica',
    'max_wal_senders = 5',
    'max_replication_slots = 5',
    'hot_standby = on',
    'shared_buffers = 32MB',
    'max_connections = 100',
    'fsync = off',
    'full_page_writes = off',
    '',
  ].join('\n');
}

/** A fresh primary with the role `app` (CREATEDB, password `app`). */
export async function startPrimary(): Promise<PgCluster> {
  const dataDir = join(ownedTempDir('ck-pgcluster-'), 'data');
  const port = await freePort();
  await asOwner('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  appendFileSync(join(dataDir, 'postgresql.conf'), settings(port, join(dataDir, '..')));
  const primary = await startServer(dataDir, port);
  await primary.sql(`CREATE ROLE app LOGIN CREATEDB PASSWORD 'app'`);
  return withParentRemoved(primary);
}

/**
 * A streaming standby of `primary` (pg_basebackup -R) that connects as `applicationName`, the name
 * that `synchronous_standby_names` gives. Returns once it streams.
 */
export async function startStandby(primary: PgCluster, applicationName: string): Promise<PgCluster> {
  const dataDir = join(ownedTempDir('ck-pgcluster-standby-'), 'data');
  const port = await freePort();
  await asOwner('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    // An immediate checkpoint: the default spreads it over minutes.
    '--checkpoint=fast',
  ]);
  // The later line of postgresql.auto.conf wins over what -R wrote.
  appendFileSync(
    join(dataDir, 'postgresql.auto.conf'),
    [
      `port = ${port}`,
      `unix_socket_directories = '${join(dataDir, '..')}'`,
      `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${applicationName}'`,
      '',
    ].join('\n'),
  );
  const standby = withParentRemoved(await startServer(dataDir, port));
  const deadline = Date.now() + 30_000;
  while (!(await streams(primary, applicationName))) {
    if (Date.now() > deadline) throw new Error(`standby ${applicationName} does not stream:\n${standby.log()}`);
    await sleep(100);
  }
  return standby;
}

async function streams(primary: PgCluster, applicationName: string): Promise<boolean> {
  const rows = await primary.sql(`SELECT 1 FROM pg_stat_replication WHERE application_name = $1 AND state = 'streaming'`, [
    applicationName,
  ]);
  return rows.length > 0;
}

/** Commits on `primary` wait for `applicationName` to have them (synchronous_commit = on). */
export async function makeSynchronous(primary: PgCluster, applicationName: string): Promise<void> {
  await primary.sql(`ALTER SYSTEM SET synchronous_standby_names = '${applicationName}'`);
  await primary.sql(`ALTER SYSTEM SET synchronous_commit = 'on'`);
  await primary.sql('SELECT pg_reload_conf()');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await primary.sql<{ sync_state: string }>(
      `SELECT sync_state FROM pg_stat_replication WHERE application_name = $1`,
      [applicationName],
    );
    if (row?.sync_state === 'sync') return;
    if (Date.now() > deadline) throw new Error(`standby ${applicationName} did not become synchronous`);
    await sleep(50);
  }
}

/** Waits until `standby` has replayed everything `primary` has written so far. */
export async function caughtUp(primary: PgCluster, standby: PgCluster, timeoutMs = 15_000): Promise<void> {
  const [{ lsn }] = await primary.sql<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ behind }] = await standby.sql<{ behind: boolean }>('SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind', [lsn]);
    if (!behind) return;
    if (Date.now() > deadline) throw new Error('the standby did not catch up');
    await sleep(50);
  }
}

/**
 * The database that test apps clone on a fresh cluster (stores.ts: `CREATE DATABASE … TEMPLATE`
 * the run's template name): empty and owned by `app`, so the app's own migrations make the schema.
 */
export async function createAppTemplate(primary: PgCluster, templateName: string): Promise<void> {
  await primary.sql(`CREATE DATABASE ${quoteIdent(templateName)} OWNER app`);
}

/** `database`'s name in a URL. */
export function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

function withParentRemoved(server: PgCluster): PgCluster {
  const remove = server.remove;
  return {
    ...server,
    remove: async () => {
      await remove();
      rmSync(join(server.dataDir, '..'), { recursive: true, force: true });
    },
  };
}
