// `npm run bench:scale`: does a login stay as cheap when the platform is big, and do the author's
// reads stay fast? On a scratch database of the PostgreSQL server at DATABASE_URL (created and
// dropped by the run): the login scenarios at the usual 100,000 cards, then the project grown to a
// million cards and ten million login-log rows (bench/scale-seed.ts), the same scenarios again, and
// the author's reads (bench/admin-reads.ts). Writes the `scale` section of docs/performance.md.
// BENCH_SCALE_KEEP=1 keeps the scratch database for a look at query plans (the next run drops it).
import os from 'node:os';
import { timeAdminReads, type ReadResult } from './admin-reads';
import { cleanup, connectPg, newRun, prepareRun } from './context';
import { residentMb } from './cpu';
import { runScenarios } from './measure';
import { codeVersion, machine } from './report';
import { growToScale, settleWrites, type Growth } from './scale-seed';
import { writeScaleReport } from './scale-report';
import { seed } from './seed';
import { killChildren, setActiveRun, startService } from './service-process';
import { BenchError, fail, S, SCALE, SCALE_SIZES, WRITE_DOC } from './settings';
import { fmtInt } from './tables';
import type { Fixture, ScenarioResult } from './types';

const log = (msg: string): void => {
  process.stdout.write(`${msg}\n`);
};

export interface ScaleReport {
  code: string;
  date: string;
  machine: ReturnType<typeof machine>;
  versions: string;
  small: ScenarioResult[];
  large: ScenarioResult[];
  growth: Growth;
  reads: ReadResult[];
  residentMb: Record<string, { now: number; peak: number }>;
  loadAfter: number;
  seconds: number;
}

/** DATABASE_URL with another database name. */
function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function main(): Promise<void> {
  if (!SCALE) fail('run the scale mode with `npm run bench:scale` (BENCH_SCALE=1)');
  const shared = process.env.DATABASE_URL ?? fail('the scale mode needs DATABASE_URL (PostgreSQL; it creates and drops a scratch database there)');
  const started = Date.now();
  const server = await connectPg(shared);
  // An interrupted run leaves its scratch database behind (gigabytes): the next run drops it.
  const { rows: leftovers } = await server.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'cardkey\\_scale\\_%'`);
  for (const { datname } of leftovers) {
    log(`dropping ${datname}, left by an interrupted run`);
    await server.query(`DROP DATABASE ${datname} WITH (FORCE)`);
  }
  const { ctx, childEnv } = newRun(shared);
  const scratch = `cardkey_scale_${ctx.tag}`;
  await server.query(`CREATE DATABASE ${scratch}`);
  ctx.databaseUrl = childEnv.DATABASE_URL = withDatabase(shared, scratch);
  ctx.label = `Scale: PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}, ${fmtInt(SCALE_SIZES.cards)} cards and ${fmtInt(SCALE_SIZES.logRows)} log rows`;
  const report: Partial<ScaleReport> & { small: ScenarioResult[]; large: ScenarioResult[]; residentMb: ScaleReport['residentMb'] } = {
    code: codeVersion(),
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: machine(),
    small: [],
    large: [],
    residentMb: {},
  };
  log(`${ctx.label}; ${S.adapters.join(', ')}; scenarios ${S.scenarios.join(', ')}; scratch database ${scratch}`);
  setActiveRun(ctx);
  try {
    const main = await prepareRun(ctx, childEnv);
    report.versions = ctx.versions ?? '';
    const pg = ctx.pg ?? fail('no database connection');
    let fixture: Fixture | undefined;
    for (const adapter of S.adapters) {
      const service = await startService(adapter, childEnv, main);
      try {
        if (!fixture) {
          fixture = (await seed(service, ctx)).fixture;
          await settleWrites(pg, log);
        }
        log(`\n[${adapter}] ${fmtInt(S.cards)} cards`);
        report.small.push(...(await runScenarios(service, fixture, `${ctx.tag}-${adapter}-small`, log)));
      } finally {
        await service.stop();
      }
    }
    if (!fixture) fail('nothing was seeded');
    log('');
    report.growth = await growToScale(pg, fixture, ctx.tag, log);
    for (const adapter of S.adapters) {
      const service = await startService(adapter, childEnv, main);
      try {
        log(`\n[${adapter}] ${fmtInt(SCALE_SIZES.cards)} cards, ${fmtInt(SCALE_SIZES.logRows)} log rows`);
        report.large.push(...(await runScenarios(service, fixture, `${ctx.tag}-${adapter}-large`, log)));
        const resident = residentMb(service.pid);
        if (resident) report.residentMb[adapter] = resident;
        if (!report.reads) {
          report.reads = await timeAdminReads(service, fixture, report.growth.probes);
          for (const r of report.reads) log(`[${adapter}] ${r.title}: p50 ${r.p50.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (${fmtInt(r.matched)} matched)`);
        }
      } finally {
        await service.stop();
      }
    }
  } finally {
    ctx.cleanup = {}; // the scratch database goes whole
    await cleanup(ctx);
    if (process.env.BENCH_SCALE_KEEP === '1') log(`kept the scratch database ${scratch} (BENCH_SCALE_KEEP=1); the next run drops it`);
    else
      await server.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`).catch((error: unknown) => {
        process.stderr.write(`warning: could not drop ${scratch}: ${error instanceof Error ? error.message : String(error)}\n`);
      });
    await server.end().catch(() => undefined);
  }
  report.loadAfter = os.loadavg()[0];
  report.seconds = (Date.now() - started) / 1000;
  writeScaleReport(ctx, report as ScaleReport, log, WRITE_DOC);
}

main().catch((error: unknown) => {
  const detail = error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? String(error)) : String(error);
  process.stderr.write(`\nbench:scale failed: ${detail}\n`);
  killChildren();
  process.exit(1);
});
