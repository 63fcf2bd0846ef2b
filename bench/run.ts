// `npm run bench`: Connect login throughput against a bare route on the same adapter.
//
// Starts the built service (a private copy of dist/, src/main.js) as a child process, first with
// HTTP_ADAPTER=express, then with fastify (then a bare node:http server for a second baseline), on one database seeded once with 100,000 cards:
// PostgreSQL (+ Redis) when DATABASE_URL (REDIS_URL) are set, else the embedded default in a fresh
// temporary DATA_DIR. Each scenario gets a checked sample request, a short warm-up, ~10 s of
// autocannon with 64 connections, and a checked request after. Prints the figures, CPU time per
// request by process and round trips per login, and writes them into docs/performance.md (between
// the bench:begin/end markers; the rest of that file is written by hand).
//
// Besides Connect, the standard client routes on the same seeded project: V3 login (HMAC-signed
// form, signed with the official client's sdk/src/signing.ts) of the bound pool, card and user
// heartbeats (Bearer session tokens opened by SDK logins before measuring) and program-user login
// (argon2 verify per request; the bench also measures argon2 hash() throughput in its own process,
// for comparison).
//
// Knobs for quick looks (a run with any of them changed does not touch docs/performance.md unless
// BENCH_WRITE_DOC=1): BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS (numbers), BENCH_ADAPTERS
// (e.g. `fastify`), BENCH_SCENARIOS (e.g. `baseline,bound`). BENCH_CPU_PROF=<dir> starts the
// service with --cpu-prof into <dir> (summarise with `node dist/bench/profile-summary.js <file>`).
//
// Modules: settings (knobs), service-process (the child service), seed, scenarios (table and
// requests), measure (autocannon runs, probes), cpu (/proc accounting), tables and report (output).
// Compiled by tsconfig.bench.json into dist/bench/ (npm run bench builds it and runs dist/bench/run.js).
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { residentMb } from './cpu';
import { argonRate, probeRoundTrips, profileWindows, runPair, runScenario, runSigningPair } from './measure';
import { codeVersion, machine, printReport, roundTripLines, writeDoc } from './report';
import { COMPARED_WITH, SCENARIOS, SIGNED_TWIN, UNSIGNED_TWIN } from './scenarios';
import { seed } from './seed';
import { killChildren, setActiveRun, startService } from './service-process';
import { BARE_HTTP, BenchError, DOC, fail, MAIN, ROOT, S, WRITE_DOC } from './settings';
import { fmtInt, fmtMs, fmtPct } from './tables';
import type { BenchContext, Fixture, Report, ScenarioResult } from './types';

async function connectPg(url: string) {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
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

async function cleanup(ctx: BenchContext): Promise<void> {
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

const log = (msg: string): void => {
  process.stdout.write(`${msg}\n`);
};

async function main(): Promise<void> {
  if (!existsSync(MAIN)) fail(`${path.relative(ROOT, MAIN)} is missing: run \`npm run build\` first (npm run bench does).`);
  const tag = randomBytes(4).toString('hex');
  const databaseUrl = process.env.DATABASE_URL;
  const ctx: BenchContext = {
    tag,
    key: databaseUrl ? 'postgresql' : 'embedded',
    label: databaseUrl
      ? `PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ' + in-process state'}`
      : 'Embedded default (PGlite + in-process state)',
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
  };

  const report: Report = {
    code: codeVersion(),
    machine: machine(),
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    results: [],
    probe: {},
    loadAfter: 0,
    residentMb: {},
  };
  log(
    `${ctx.label}: ${S.adapters.join(' then ')}, ${S.connections} connections, ${S.duration} s per scenario (+${S.warmup} s warm-up)`,
  );
  log(`machine: ${report.machine.cores} cores, ${report.machine.model}, ${report.machine.memory}, Node ${report.machine.node}`);
  if (report.machine.loadBefore > 1.5) {
    log(
      `warning: load average ${report.machine.loadBefore.toFixed(2)} before start: something else is using the CPU, figures will be low`,
    );
  }
  const benchStarted = Date.now();
  setActiveRun(ctx);
  try {
    if (databaseUrl) {
      if (!process.env.APP_ENCRYPTION_KEY) {
        // Only the bench's own project is read and written: any key will do, but say so.
        childEnv.APP_ENCRYPTION_KEY = randomBytes(32).toString('hex');
        process.stderr.write('note: APP_ENCRYPTION_KEY is unset; the service runs with a random key for this benchmark\n');
      }
      ctx.pg = await connectPg(databaseUrl);
    } else {
      ctx.dataDir = mkdtempSync(path.join(os.tmpdir(), 'ck-bench-'));
      childEnv.DATA_DIR = ctx.dataDir;
    }
    if (S.cpuProfDir) mkdirSync(S.cpuProfDir, { recursive: true });
    // A private copy of the build: another `npm run build` (rm -rf dist) during the run must not pull
    // it away between the two starts. Under node_modules/ so that the copy resolves the same packages.
    ctx.buildCopy = path.join(ROOT, 'node_modules/.cache/cardkey-bench', tag);
    cpSync(path.join(ROOT, 'dist'), path.join(ctx.buildCopy, 'dist'), { recursive: true });
    const main = path.join(ctx.buildCopy, 'dist', path.relative(path.join(ROOT, 'dist'), MAIN));
    ctx.versions = await versions(ctx);
    let fixture: Fixture | undefined;
    for (const adapter of S.adapters) {
      const service = await startService(adapter, childEnv, main);
      log(`\n[${adapter}] ready in ${service.bootSeconds.toFixed(1)} s`);
      try {
        if (!fixture) {
          const seeded = await seed(service, ctx);
          fixture = seeded.fixture;
          report.seed = seeded.seed;
          log(
            `[${adapter}] seeded ${fmtInt(S.cards)} cards by ${seeded.seed.how} in ${seeded.seed.seconds.toFixed(1)} s; ` +
              `${fmtInt(seeded.seed.preLogins)} first logins in ${seeded.seed.preLoginSeconds.toFixed(1)} s`,
          );
          if (seeded.seed.cardSessions || seeded.seed.users) {
            log(
              `[${adapter}] ${seeded.seed.cardSessions} card sessions, ${seeded.seed.users} users, ${seeded.seed.userSessions} user sessions ` +
                `in ${seeded.seed.clientSeconds.toFixed(1)} s`,
            );
          }
          report.probe = await probeRoundTrips(service, fixture, tag);
          report.probeAdapter = adapter;
          for (const line of roundTripLines(report.probe)) log(`[${adapter}] ${line}`);
        }
        for (const name of S.scenarios) {
          const signed = SIGNED_TWIN[name];
          if (signed && S.scenarios.includes(signed)) continue; // measured with its signed twin
          const twin = UNSIGNED_TWIN[name];
          const reference = COMPARED_WITH[name];
          let results: ScenarioResult[];
          if (twin && S.scenarios.includes(twin)) {
            results = await runSigningPair(service, name, twin, fixture, `${tag}-${adapter}`);
          } else if (reference) {
            const [ref, own] = await runPair(service, reference, name, fixture, `${tag}-${adapter}-vs`);
            results = [own];
            const cpu = own.cpu && ref.cpu ? `, service CPU per request ${fmtPct(own.cpu.service / ref.cpu.service)}` : '';
            log(`[${adapter}] ${SCENARIOS[name].short} against ${SCENARIOS[reference].short}, A-B-B-A: throughput ${fmtPct(own.rps / ref.rps)}${cpu}`);
          } else {
            results = [await runScenario(service, name, fixture, `${tag}-${adapter}`)];
          }
          for (const result of results) {
            report.results.push(result);
            log(
              `[${adapter}] ${SCENARIOS[result.scenario].title}: ${fmtInt(result.rps)} req/s, p50 ${fmtMs(result.p50)} ms, p99 ${fmtMs(result.p99)} ms`,
            );
          }
        }
        const resident = residentMb(service.pid);
        if (resident) {
          report.residentMb[adapter] = resident;
          log(`[${adapter}] service RSS after its scenarios ${resident.now.toFixed(0)} MB, peak since start ${resident.peak.toFixed(0)} MB`);
        }
      } finally {
        await service.stop();
      }
    }
    if (fixture && S.scenarios.includes('baseline')) {
      // The bare node:http server answers the baseline too: what the framework itself costs.
      const bare = await startService('node:http', childEnv, path.join(ctx.buildCopy, 'dist', path.relative(path.join(ROOT, 'dist'), BARE_HTTP)));
      try {
        const result = await runScenario(bare, 'baseline', fixture, `${tag}-bare`);
        report.results.push(result);
        log(`\n[node:http] ${SCENARIOS.baseline.title}: ${fmtInt(result.rps)} req/s, p50 ${fmtMs(result.p50)} ms, p99 ${fmtMs(result.p99)} ms`);
      } finally {
        await bare.stop();
      }
    }
    if (S.scenarios.includes('user-login')) {
      report.argon = await argonRate();
      log(
        `\nargon2 hash() in the bench process: ${fmtInt(report.argon.rate)} hashes/s (${report.argon.msEach.toFixed(0)} ms each, ${S.argonConcurrency} in flight)`,
      );
    }
  } finally {
    await cleanup(ctx);
    if (S.cpuProfDir) {
      const file = path.join(S.cpuProfDir, 'windows.json');
      const earlier = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...earlier, ...profileWindows }, null, 2));
    }
  }
  report.loadAfter = os.loadavg()[0];
  printReport(ctx, report, log);
  if (WRITE_DOC) {
    writeDoc(ctx, report);
    log(`figures written to ${path.relative(ROOT, DOC)} (${ctx.key} section)`);
  } else {
    log('(non-default settings: docs/performance.md left as is; BENCH_WRITE_DOC=1 writes it anyway)');
  }
  log(`total ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
}

main().catch((error: unknown) => {
  const detail =
    error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? String(error)) : String(error);
  process.stderr.write(`\nbench failed: ${detail}\n`);
  killChildren();
  process.exit(1);
});
