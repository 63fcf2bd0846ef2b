// One bench run's context: its tag, its database (or embedded data directory), a private copy of the
// build, the service's environment, and the cleanup of all of it. Shared by `npm run bench`
// (run.ts) and its scale mode (scale.ts).
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAIN, ROOT, S, fail } from './settings';
import type { BenchContext } from './types';

export async function connectPg(url: string) {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

/** A new run on `databaseUrl` (PostgreSQL) or, without one, the embedded default. */
export function newRun(databaseUrl: string | undefined): { ctx: BenchContext; childEnv: Record<string, string> } {
  if (!existsSync(MAIN)) fail(`${path.relative(ROOT, MAIN)} is missing: run \`npm run build\` first (npm run bench does).`);
  const tag = randomBytes(4).toString('hex');
  const ctx: BenchContext = {
    tag,
    key: databaseUrl ? 'postgresql' : 'embedded',
    label: databaseUrl
      ? `PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ' + in-process state'}`
      : 'Embedded default (PGlite + in-process state)',
    databaseUrl,
    adminUsername: `bench-${tag}`,
    adminPassword: randomBytes(12).toString('hex'),
    cleanup: {},
    pg: null,
    dataDir: null,
  };
  ctx.cleanup.adminUsername = ctx.adminUsername;
  const childEnv: Record<string, string> = {
    ADMIN_USERNAME: ctx.adminUsername,
    ADMIN_PASSWORD: ctx.adminPassword,
    ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    // The failed-login limiter reserves a slot per attempt in flight (refunded unless the password
    // was wrong): with the default 10, more than 10 concurrent logins from one address are refused.
    APP_USER_LOGIN_ATTEMPTS_PER_MINUTE: '100000',
    // The seed registers and the user-login scenario signs in from one address far faster than a
    // person: the request-rate limits stay on (their cost is measured) at their highest setting.
    RATE_LIMIT_REGISTER_PER_ADDRESS: '1000000',
    RATE_LIMIT_REGISTER_PER_PROGRAM: '1000000',
    RATE_LIMIT_SIGN_IN_PER_ADDRESS: '1000000',
    RATE_LIMIT_SIGN_IN_PER_ACCOUNT: '1000000',
    RATE_LIMIT_ADMIN_WRITE_PER_ADDRESS: '1000000',
    RATE_LIMIT_ADMIN_WRITE_PER_ACCOUNT: '1000000',
    // One process: on PostgreSQL + Redis the service would otherwise run one worker per core. The
    // clustered runs (BENCH_WORKERS, run.ts) set their own count.
    WORKERS: '1',
  };
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  return { ctx, childEnv };
}

/**
 * Connects to the run's database (or makes its data directory) and copies the build; answers the
 * path of the copied main module. The copy is private: another `npm run build` (rm -rf dist) during
 * the run must not pull it away between two starts. Under node_modules/ so that it resolves the
 * same packages.
 */
export async function prepareRun(ctx: BenchContext, childEnv: Record<string, string>, entry = MAIN): Promise<string> {
  if (ctx.databaseUrl) {
    if (!process.env.APP_ENCRYPTION_KEY) {
      // Only the bench's own project is read and written: any key will do, but say so.
      childEnv.APP_ENCRYPTION_KEY = randomBytes(32).toString('hex');
      process.stderr.write('note: APP_ENCRYPTION_KEY is unset; the service runs with a random key for this benchmark\n');
    }
    ctx.pg = await connectPg(ctx.databaseUrl);
  } else {
    ctx.dataDir = mkdtempSync(path.join(os.tmpdir(), 'ck-bench-'));
    childEnv.DATA_DIR = ctx.dataDir;
  }
  if (S.cpuProfDir) mkdirSync(S.cpuProfDir, { recursive: true });
  ctx.buildCopy = path.join(ROOT, 'node_modules/.cache/cardkey-bench', ctx.tag);
  cpSync(path.join(ROOT, 'dist'), path.join(ctx.buildCopy, 'dist'), { recursive: true });
  ctx.versions = await versions(ctx);
  return copied(ctx, entry);
}

/** Where `entry` (a module under dist/) is in the run's private copy of the build. */
export function copied(ctx: BenchContext, entry: string): string {
  if (!ctx.buildCopy) fail('the build was not copied yet');
  return path.join(ctx.buildCopy, 'dist', path.relative(path.join(ROOT, 'dist'), entry));
}

async function versions(ctx: BenchContext): Promise<string> {
  const parts: string[] = [];
  if (ctx.pg) {
    const { rows } = await ctx.pg.query<{ server_version: string }>('SHOW server_version');
    parts.push(`PostgreSQL ${rows[0].server_version.split(' ')[0]}`);
  }
  if (process.env.REDIS_URL) {
    try {
      const { default: Redis } = await import('ioredis');
      const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      const info = await redis.info('server');
      await redis.quit();
      parts.push(`Redis ${/redis_version:(\S+)/.exec(info)?.[1] ?? '?'}`);
    } catch {
      parts.push('Redis (version unknown)');
    }
  }
  return parts.join(', ');
}

/** Removes the run's rows (a shared PostgreSQL database), data directory and build copy. */
export async function cleanup(ctx: BenchContext): Promise<void> {
  if (ctx.pg) {
    // The bench's rows only: its project (cards, devices, login log cascade), its author, its admin.
    try {
      if (ctx.cleanup.projectId) await ctx.pg.query('DELETE FROM projects WHERE id = $1', [ctx.cleanup.projectId]);
      const users = [ctx.cleanup.authorId, ctx.cleanup.adminUsername].filter(Boolean);
      if (users.length)
        await ctx.pg.query('DELETE FROM admin_users WHERE id::text = ANY($1) OR lower(username) = ANY($1)', [users]);
    } catch (error) {
      process.stderr.write(
        `warning: could not remove the bench's rows from PostgreSQL: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
    await ctx.pg.end().catch(() => undefined);
  }
  if (ctx.dataDir) rmSync(ctx.dataDir, { recursive: true, force: true });
  if (ctx.buildCopy) {
    rmSync(ctx.buildCopy, { recursive: true, force: true });
    try {
      rmdirSync(path.dirname(ctx.buildCopy)); // only when no other run is using it
    } catch {
      // not empty
    }
  }
}
