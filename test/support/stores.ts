import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { EMBEDDED_POOL_GLOBAL, EmbeddedPool } from './embedded-pool';
import type { PostgresPool } from './postgres-pool';

/**
 * Where each test app keeps its state, so that no two test apps (and no two Jest workers) ever see
 * each other's data, settings or counters, and the suites can run in parallel on any runtime:
 *
 * - embedded (no DATABASE_URL): a copy of the run's migrated PGlite template in a fresh DATA_DIR;
 * - DATABASE_URL: a database of its own, `CREATE DATABASE … TEMPLATE` the run's migrated template
 *   database (made once by global-setup.ts), dropped when the app closes;
 * - REDIS_URL: a Redis logical database of its own (`redis://…/N`), claimed for the app's lifetime
 *   and flushed before and after use.
 *
 * Apps that must share (two instances of one deployment) join the stores of the first app.
 */

/** Set by global-setup.ts: the migrated embedded data directory of this run. */
export const EMBEDDED_TEMPLATE_ENV = 'CK_TEST_EMBEDDED_TEMPLATE';
/** Set by global-setup.ts: the migrated template database of this run (DATABASE_URL). */
export const PG_TEMPLATE_ENV = 'CK_TEST_PG_TEMPLATE';

/**
 * Puts a copy of the run's migrated embedded template in `dataDir` (its `pgdata`), as a real service
 * process or command-line tool of a test then opens it: PGlite's initdb and the migrations (4-6 s of
 * CPU) are paid once per run. No-op outside the e2e global setup, which makes the template.
 */
export function copyEmbeddedTemplate(dataDir: string): void {
  const template = process.env[EMBEDDED_TEMPLATE_ENV];
  if (template) cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
}

/** The prefix of every database a run makes next to the one DATABASE_URL names. */
export function runDatabasePrefix(databaseUrl: string, runId: string): string {
  return `${databaseName(databaseUrl).slice(0, 30)}_cktest_${runId}`;
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || 'postgres';
}

export function withDatabase(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs `fn` on a short-lived connection to the database that `databaseUrl` names (no transaction: CREATE DATABASE needs none). */
export async function withPg<T>(databaseUrl: string, fn: (db: DataSource) => Promise<T>): Promise<T> {
  const db = await new DataSource({ type: 'postgres', url: databaseUrl, poolSize: 1 }).initialize();
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/** Where embedded-environment.ts hands each test file its worker's pool of PostgreSQL databases. */
export const POSTGRES_POOL_GLOBAL = '__ckPostgresPool';

/** The worker's pool of PostgreSQL databases cloned from the run's template of `databaseUrl`, when the e2e environment provides one. */
export function postgresPool(databaseUrl: string): PostgresPool | undefined {
  const pool = (globalThis as Record<string, unknown>)[POSTGRES_POOL_GLOBAL] as PostgresPool | undefined;
  return pool?.baseUrl === databaseUrl ? pool : undefined;
}

/** The worker's pool of migrated embedded databases, when the e2e environment provides one. */
export function embeddedPool(): EmbeddedPool | undefined {
  return (globalThis as Record<string, unknown>)[EMBEDDED_POOL_GLOBAL] as EmbeddedPool | undefined;
}

export interface AppStores {
  /** Environment for the app: DATA_DIR always, DATABASE_URL and REDIS_URL when the run uses them. */
  env: Record<string, string>;
  /** One more app uses these stores (a second instance of the same deployment). */
  join(): void;
  /** One app is done with these stores; the last one gives them back. */
  leave(): Promise<void>;
}

/**
 * Fresh stores for one app, from the environment the app would start with (`DATABASE_URL: ''` in
 * it means the embedded database, whatever the run uses).
 */
export async function acquireStores(wanted: { DATABASE_URL?: string; REDIS_URL?: string }): Promise<AppStores> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ck-test-'));
  const releases: Array<() => Promise<void>> = [async () => rmSync(dataDir, { recursive: true, force: true })];
  const env: Record<string, string> = { DATA_DIR: dataDir };
  try {
    if (wanted.DATABASE_URL) {
      const database = (await postgresPool(wanted.DATABASE_URL)?.take()) ?? (await createDatabase(wanted.DATABASE_URL));
      env.DATABASE_URL = throughTestPooler(database.url);
      releases.push(database.release);
    } else {
      // With the worker's pool (embedded-environment.ts) the app takes a database from it instead.
      if (!embeddedPool()) copyEmbeddedTemplate(dataDir);
      env.DATABASE_URL = '';
    }
    if (wanted.REDIS_URL) {
      const keyspace = await claimRedisDatabase(wanted.REDIS_URL);
      env.REDIS_URL = keyspace.url;
      releases.push(keyspace.release);
    } else {
      env.REDIS_URL = '';
    }
  } catch (error) {
    await releaseAll(releases);
    throw error;
  }
  let users = 1;
  return {
    env,
    join: () => {
      if (!env.DATABASE_URL) throw new Error('a second instance needs DATABASE_URL: the embedded database has one session');
      users += 1;
    },
    leave: async () => {
      users -= 1;
      if (users === 0) await releaseAll(releases);
    },
  };
}

/**
 * The app's database URL through the pooler of the run's PgBouncer pass (`CK_TEST_POOLER`,
 * host:port; .ci/run), when there is one. The harness itself makes, clones and drops databases
 * directly: a pooler keeps server connections to a template that `CREATE DATABASE … TEMPLATE` refuses.
 */
export function throughTestPooler(databaseUrl: string): string {
  const pooler = process.env.CK_TEST_POOLER;
  const url = new URL(databaseUrl);
  // Only the pass's own server sits behind that pooler; a spec's cluster of its own does not.
  if (!pooler || !process.env.DATABASE_URL || url.host !== new URL(process.env.DATABASE_URL).host) return databaseUrl;
  url.host = pooler;
  return url.toString();
}

async function releaseAll(releases: Array<() => Promise<void>>): Promise<void> {
  const errors: unknown[] = [];
  for (const release of [...releases].reverse()) await release().catch((error: unknown) => errors.push(error));
  if (errors.length) throw errors[0];
}

let databaseCounter = 0;

/** A database of its own for one app: a copy of the run's migrated template, dropped at release. */
async function createDatabase(databaseUrl: string): Promise<{ url: string; release: () => Promise<void> }> {
  const template = process.env[PG_TEMPLATE_ENV];
  if (!template)
    throw new Error(`${PG_TEMPLATE_ENV} is not set: the e2e global setup makes the template database (jest.config.js)`);
  databaseCounter += 1;
  // `<template>_<worker pid>_<n><random>`: the counter restarts with every test file (Jest loads
  // modules per file), so a random part keeps a name that a failed drop left behind from coming
  // back. Global teardown drops every `<template>_%` left over.
  const name = `${template}_${process.pid.toString(36)}_${databaseCounter}${randomBytes(3).toString('hex')}`;
  await withPg(databaseUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`));
  return { url: withDatabase(databaseUrl, name), release: () => dropDatabase(databaseUrl, name) };
}

/**
 * Drops an app's database once the app has closed its connections. A plain DROP first: PostgreSQL
 * itself stops an autovacuum worker busy there, which `WITH (FORCE)` may not do for a role that is
 * not a superuser ("must be a member of the role whose process is being terminated"). FORCE only if
 * a session is still open. A database that cannot be dropped now is left to the global teardown.
 */
export async function dropDatabase(databaseUrl: string, name: string): Promise<void> {
  await withPg(databaseUrl, async (client) => {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
    } catch {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`).catch(() => undefined);
    }
  });
}

const CLAIM_PREFIX = 'ck-test:redis-db:';
const CLAIM_TTL_SECONDS = 3600;
const CLAIM_WAIT_MS = 120_000;

/**
 * A Redis logical database of its own for one app, claimed in the database REDIS_URL names (SET NX
 * of `ck-test:redis-db:N` there, so that every worker and every concurrent run agrees) and flushed.
 * A claim whose process on this host is gone is taken over; when every database is taken, waits.
 */
async function claimRedisDatabase(redisUrl: string): Promise<{ url: string; release: () => Promise<void> }> {
  const registry = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await registry.connect();
  try {
    const home = registry.options.db ?? 0;
    const count = await databaseCount(registry);
    const owner = `${hostname()}:${process.pid}`;
    const deadline = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      for (let index = 0; index < count; index++) {
        if (index === home) continue;
        const key = `${CLAIM_PREFIX}${index}`;
        let claimed = (await registry.set(key, owner, 'EX', CLAIM_TTL_SECONDS, 'NX')) === 'OK';
        if (!claimed && isDeadLocalOwner(await registry.get(key))) {
          await registry.del(key);
          claimed = (await registry.set(key, owner, 'EX', CLAIM_TTL_SECONDS, 'NX')) === 'OK';
        }
        if (!claimed) continue;
        const url = new URL(redisUrl);
        url.pathname = `/${index}`;
        await flushDatabase(redisUrl, index);
        return {
          url: url.toString(),
          release: async () => {
            await flushDatabase(redisUrl, index);
            const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
            await client.connect();
            try {
              if ((await client.get(key)) === owner) await client.del(key);
            } finally {
              client.disconnect();
            }
          },
        };
      }
      if (Date.now() > deadline)
        throw new Error(`every Redis logical database of ${redisUrl} is claimed by a test app (${CLAIM_PREFIX}*)`);
      await sleep(100);
    }
  } finally {
    registry.disconnect();
  }
}

async function databaseCount(redis: Redis): Promise<number> {
  try {
    const [, value] = (await redis.config('GET', 'databases')) as [string, string];
    return Number(value) || 16;
  } catch {
    return 16; // CONFIG may be refused (managed Redis): the default is 16
  }
}

function isDeadLocalOwner(owner: string | null): boolean {
  if (!owner) return false;
  const [host, pid] = owner.split(':');
  if (host !== hostname()) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function flushDatabase(redisUrl: string, index: number): Promise<void> {
  const client = new Redis(redisUrl, { db: index, lazyConnect: true, maxRetriesPerRequest: 2 });
  await client.connect();
  try {
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}
