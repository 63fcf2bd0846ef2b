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
// Every scenario runs on one process (WORKERS=1); BENCH_WORKERS (default `1,<cores>` on PostgreSQL +
// Redis) runs the bound-device login again on the service clustered with each count above 1, started
// beside the single process of the same adapter and measured A-B-B-A with it, and prints the ratio
// (CPU: the primary and its workers together; round trips: the single process's). A scenario with a
// target is measured in slices interleaved with slices of the baseline, and judged by the median of
// its rounds' ratios (measure.ts, runInterleaved); on PostgreSQL each scenario starts after a VACUUM
// ANALYZE of the login tables.
//
// Modules: settings (knobs), service-process (the child service), seed, scenarios (table and
// requests), measure (autocannon runs, probes), cpu (/proc accounting), tables and report (output).
// Compiled by tsconfig.bench.json into dist/bench/ (npm run bench builds it and runs dist/bench/run.js).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childrenOf, residentMb } from './cpu';
import { argonRate, probeRoundTrips, profileWindows, runOnBoth, runScenario, runScenarios } from './measure';
import { clusterLine, codeVersion, machine, printReport, roundTripLines, writeDoc } from './report';
import { SCENARIOS } from './scenarios';
import { seed, vacuumLoginTables } from './seed';
import { killChildren, setActiveRun, startService, type Service } from './service-process';
import { cleanup, copied, newRun, prepareRun } from './context';
import { BARE_HTTP, BenchError, CLUSTERED, DOC, ROOT, S, WRITE_DOC, type Adapter } from './settings';
import { fmtInt, fmtMs } from './tables';
import type { BenchContext, ClusterResult, Fixture, Report } from './types';

const log = (msg: string): void => {
  process.stdout.write(`${msg}\n`);
};

async function main(): Promise<void> {
  const { ctx, childEnv } = newRun(process.env.DATABASE_URL);

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
    const main = await prepareRun(ctx, childEnv);
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
          report.probe = await probeRoundTrips(service, fixture, ctx.tag);
          report.probeAdapter = adapter;
          for (const line of roundTripLines(report.probe)) log(`[${adapter}] ${line}`);
        }
        report.results.push(
          ...(await runScenarios(service, fixture, `${ctx.tag}-${adapter}`, log, {
            interleaveTargets: true,
            settle: settleDatabase(ctx),
          })),
        );
        const resident = residentMb(service.pid);
        if (resident) {
          report.residentMb[adapter] = resident;
          log(
            `[${adapter}] service RSS after its scenarios ${resident.now.toFixed(0)} MB, peak since start ${resident.peak.toFixed(0)} MB`,
          );
        }
        for (const workers of CLUSTERED) {
          const clustered = await runClustered(adapter, workers, childEnv, main, fixture, ctx.tag, service);
          (report.cluster ??= []).push(clustered);
          log(`[${adapter}] ${clusterLine(clustered, report.machine.cores)}`);
        }
      } finally {
        await service.stop();
      }
    }
    if (fixture && S.scenarios.includes('baseline')) {
      // The bare node:http server answers the baseline too: what the framework itself costs.
      const bare = await startService('node:http', childEnv, copied(ctx, BARE_HTTP));
      try {
        const result = await runScenario(bare, 'baseline', fixture, `${ctx.tag}-bare`);
        report.results.push(result);
        log(
          `\n[node:http] ${SCENARIOS.baseline.title}: ${fmtInt(result.rps)} req/s, p50 ${fmtMs(result.p50)} ms, p99 ${fmtMs(result.p99)} ms`,
        );
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

/**
 * The bound-device login on the service clustered with `workers` workers (BENCH_WORKERS), against the
 * single process of the same adapter, which stays up beside it: A-B-B-A, half the duration each
 * (measure.ts, runOnBoth), on the same database, cards and load; then the baseline route the same
 * way, which needs no database. The service's CPU is the primary's and its workers' together (cpu.ts).
 */
async function runClustered(
  adapter: Adapter,
  workers: number,
  childEnv: Record<string, string>,
  main: string,
  fixture: Fixture,
  tag: string,
  singleService: Service,
): Promise<ClusterResult> {
  const service = await startService(adapter, childEnv, main, workers);
  log(`\n[${adapter}, ${workers} workers] ready in ${service.bootSeconds.toFixed(1)} s`);
  try {
    // Each worker warms up (JIT) on its share of the load: as many warm-up requests per worker as the single process has.
    const runTag = `${tag}-${adapter}-w${workers}`;
    const [single, result] = await runOnBoth(singleService, service, 'bound', fixture, runTag, S.warmup * workers);
    const rss = [service.pid, ...childrenOf(service.pid)].map((pid) => residentMb(pid)?.now ?? 0).reduce((a, b) => a + b, 0);
    let baseline: ClusterResult['baseline'];
    if (S.scenarios.includes('baseline')) {
      const [baselineSingle, baselineResult] = await runOnBoth(
        singleService,
        service,
        'baseline',
        fixture,
        `${runTag}-baseline`,
        S.warmup * workers,
      );
      baseline = { single: baselineSingle, result: baselineResult };
    }
    return { workers, result, single, residentMb: rss || undefined, baseline };
  } finally {
    await service.stop();
  }
}

/**
 * On PostgreSQL: VACUUM ANALYZE of the tables logins write, before each scenario. During a run
 * autovacuum woke about once a minute for the log rows and daily counters the logins had written
 * (pg_stat_user_tables), inside whichever scenario was being measured; now each scenario starts
 * from the same clean state, whatever ran before it.
 */
function settleDatabase(ctx: BenchContext): (() => Promise<void>) | undefined {
  const pg = ctx.pg;
  return pg ? () => vacuumLoginTables(pg) : undefined;
}

main().catch((error: unknown) => {
  const detail =
    error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? String(error)) : String(error);
  process.stderr.write(`\nbench failed: ${detail}\n`);
  killChildren();
  process.exit(1);
});
