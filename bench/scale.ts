// `npm run bench:scale`: does a login stay as cheap when the platform is big, and do the author's
// reads stay fast? On two scratch databases of the PostgreSQL server at DATABASE_URL (created and
// dropped by the run): one seeded with the usual 100,000 cards, and a copy of it grown to a million
// cards and ten million login-log rows (bench/scale-seed.ts). A service runs on each, side by side,
// and every login scenario alternates between them A-B-B-A (measure.ts, runOnBoth), so that a drift
// of this machine weighs on both sizes alike; then the author's reads on the grown one
// (bench/admin-reads.ts). Writes the `scale` section of docs/performance.md. BENCH_SCALE_KEEP=1
// keeps the scratch databases for a look at query plans (the next run drops them).
import os from 'node:os';
import { timeAdminReads, type ReadResult } from './admin-reads';
import { measureBackupDuringLogins, type BackupCost } from './backup-during-logins';
import { cleanup, connectPg, newRun, prepareRun } from './context';
import { residentMb } from './cpu';
import { runOnBoth } from './measure';
import { codeVersion, machine } from './report';
import { growToScale, type Growth } from './scale-seed';
import { writeScaleReport } from './scale-report';
import { seed } from './seed';
import { killChildren, setActiveRun, startService } from './service-process';
import { BenchError, fail, S, SCALE, SCALE_SIZES, WRITE_DOC } from './settings';
import { COMPARED_WITH, SCENARIOS, SIGNED_TWIN } from './scenarios';
import { fmtInt, fmtMs, fmtPct } from './tables';
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
  backup?: BackupCost;
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
  const shared =
    process.env.DATABASE_URL ??
    fail('the scale mode needs DATABASE_URL (PostgreSQL; it creates and drops a scratch database there)');
  const started = Date.now();
  const server = await connectPg(shared);
  // An interrupted run leaves its scratch database behind (gigabytes): the next run drops it.
  const { rows: leftovers } = await server.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE 'cardkey\\_scale\\_%'`,
  );
  for (const { datname } of leftovers) {
    log(`dropping ${datname}, left by an interrupted run`);
    await server.query(`DROP DATABASE ${datname} WITH (FORCE)`);
  }
  const paired = S.scenarios.filter((name) => SIGNED_TWIN[name] || COMPARED_WITH[name]);
  if (paired.length)
    fail(`the scale mode measures each scenario against its grown copy; ${paired.join(', ')} need a pair of their own`);
  const { ctx, childEnv } = newRun(shared);
  const scratch = `cardkey_scale_${ctx.tag}`;
  const grownDatabase = `${scratch}_grown`;
  await server.query(`CREATE DATABASE ${scratch}`);
  ctx.databaseUrl = childEnv.DATABASE_URL = withDatabase(shared, scratch);
  ctx.label = `Scale: PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}, ${fmtInt(SCALE_SIZES.cards)} cards and ${fmtInt(SCALE_SIZES.logRows)} log rows`;
  const report: Partial<ScaleReport> & {
    small: ScenarioResult[];
    large: ScenarioResult[];
    residentMb: ScaleReport['residentMb'];
  } = {
    code: codeVersion(),
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: machine(),
    small: [],
    large: [],
    residentMb: {},
  };
  log(
    `${ctx.label}; ${S.adapters.join(', ')}; scenarios ${S.scenarios.join(', ')}; scratch databases ${scratch}, ${grownDatabase}`,
  );
  setActiveRun(ctx);
  let grownPg: Awaited<ReturnType<typeof connectPg>> | undefined;
  try {
    const main = await prepareRun(ctx, childEnv);
    report.versions = ctx.versions ?? '';
    // After prepareRun, which may add a random APP_ENCRYPTION_KEY: both services need the key the secrets were written with.
    const grownEnv = { ...childEnv, DATABASE_URL: withDatabase(shared, grownDatabase) };
    const seeding = await startService(S.adapters[0], childEnv, main);
    let fixture: Fixture;
    try {
      fixture = (await seed(seeding, ctx)).fixture;
    } finally {
      await seeding.stop();
    }
    // The grown database starts as a copy of the seeded one (same project, cards, sessions and
    // secrets, so one fixture serves both); a template may have no other connection while copied,
    // and nothing after this reads the seeded database but its service.
    await ctx.pg?.end();
    ctx.pg = null;
    await server.query(`CREATE DATABASE ${grownDatabase} TEMPLATE ${scratch}`);
    grownPg = await connectPg(grownEnv.DATABASE_URL);
    log('');
    report.growth = await growToScale(grownPg, fixture, ctx.tag, log);
    for (const adapter of S.adapters) {
      const small = await startService(adapter, childEnv, main);
      try {
        const grown = await startService(adapter, grownEnv, main);
        try {
          log(
            `\n[${adapter}] ${fmtInt(S.cards)} cards against ${fmtInt(SCALE_SIZES.cards)} cards and ${fmtInt(SCALE_SIZES.logRows)} log rows, A-B-B-A`,
          );
          for (const name of S.scenarios) {
            const [before, after] = await runOnBoth(small, grown, name, fixture, `${ctx.tag}-${adapter}-${name}`, S.warmup);
            report.small.push(before);
            report.large.push(after);
            log(
              `[${adapter}] ${SCENARIOS[name].title}: ${fmtInt(before.rps)} → ${fmtInt(after.rps)} req/s (${fmtPct(after.rps / before.rps - 1)}), ` +
                `p99 ${fmtMs(before.p99)} → ${fmtMs(after.p99)} ms`,
            );
          }
          const resident = residentMb(grown.pid);
          if (resident) report.residentMb[adapter] = resident;
          if (!report.reads) {
            report.reads = await timeAdminReads(grown, fixture, report.growth.probes);
            for (const r of report.reads)
              log(
                `[${adapter}] ${r.title}: p50 ${r.p50.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (${fmtInt(r.matched)} matched)`,
              );
          }
          if (!report.backup && process.env.BENCH_SCALE_BACKUP !== '0')
            report.backup = await measureBackupDuringLogins(
              grown,
              grownEnv,
              fixture,
              server,
              (name) => withDatabase(shared, name),
              ctx.tag,
              log,
            );
        } finally {
          await grown.stop();
        }
      } finally {
        await small.stop();
      }
    }
  } finally {
    ctx.cleanup = {}; // the scratch databases go whole
    await cleanup(ctx);
    await grownPg?.end().catch(() => undefined);
    if (process.env.BENCH_SCALE_KEEP === '1')
      log(`kept the scratch databases ${scratch} and ${grownDatabase} (BENCH_SCALE_KEEP=1); the next run drops them`);
    else
      for (const name of [scratch, grownDatabase]) {
        await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) => {
          process.stderr.write(`warning: could not drop ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
        });
      }
    await server.end().catch(() => undefined);
  }
  report.loadAfter = os.loadavg()[0];
  report.seconds = (Date.now() - started) / 1000;
  writeScaleReport(ctx, report as ScaleReport, log, WRITE_DOC);
}

main().catch((error: unknown) => {
  const detail =
    error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? String(error)) : String(error);
  process.stderr.write(`\nbench:scale failed: ${detail}\n`);
  killChildren();
  process.exit(1);
});
