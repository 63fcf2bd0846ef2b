// The report: what was measured on which machine, printed at the end and written into
// docs/performance.md between the bench:begin / bench:end markers of the run's section.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCENARIOS } from './scenarios';
import { ALL_SCENARIOS, DOC, fail, ROOT, S } from './settings';
import { CPU_NOTE, cpuMarkdownTable, cpuTextTable, fmtInt, fmtPct, markdownTable, textTable } from './tables';
import type { BenchContext, ClusterResult, MachineInfo, Report, RoundTripProbe, ScenarioResult } from './types';

const fmtRt = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));

export function roundTripLines(probe: RoundTripProbe): string[] {
  const count = (n: number, one: string, many: string): string => `${fmtRt(n)} ${n === 1 ? one : many}`;
  return ALL_SCENARIOS.flatMap((name) => {
    const v = probe[name];
    return v
      ? [
          `${SCENARIOS[name].short}: ${count(v.pg, 'database query', 'database queries')}, ${count(v.redis, 'Redis command', 'Redis commands')}`,
        ]
      : [];
  });
}

function argonLine(report: Report): string | null {
  const a = report.argon;
  if (!a) return null;
  const logins = report.results.filter((r) => r.scenario === 'user-login').map((r) => `${r.adapter} ${fmtInt(r.rps)}`);
  return (
    `argon2 (\`@node-rs/argon2\` hash(), defaults, ${S.argonConcurrency} in flight, ${a.seconds.toFixed(1)} s in the bench process with the service stopped): ` +
    `${fmtInt(a.rate)} hashes/s (${a.msEach.toFixed(0)} ms each); user logins/s: ${logins.join(', ') || 'not measured'}.`
  );
}

export function machine(): MachineInfo {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return {
    cores,
    model,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadBefore: os.loadavg()[0],
  };
}

/** The code measured: HEAD and whether the working tree differs (read-only git commands). */
export function codeVersion(): string {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'migrations') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in src/ or migrations/' : ''}`;
  } catch {
    return 'unknown commit';
  }
}

export function commandLine(ctx: BenchContext, command = 'npm run bench'): string {
  const vars: string[] = [];
  // From the run's settings, not its open connection: scale mode closes that one before it reports.
  if (ctx.databaseUrl) vars.push('DATABASE_URL=postgres://…');
  if (process.env.REDIS_URL) vars.push('REDIS_URL=redis://…');
  if (ctx.databaseUrl) vars.push('APP_ENCRYPTION_KEY=<64 hex>');
  for (const name of [
    'BENCH_DURATION',
    'BENCH_WARMUP',
    'BENCH_CONNECTIONS',
    'BENCH_ADAPTERS',
    'BENCH_SCENARIOS',
    'BENCH_WORKERS',
    'BENCH_SCALE_CARDS',
    'BENCH_SCALE_LOG_ROWS',
  ]) {
    if (process.env[name]) vars.push(`${name}=${process.env[name]}`);
  }
  return [...vars, command].join(' ');
}

const micros = (ms: number): string => (ms * 1000).toFixed(1);

/**
 * What a client family's envelope interceptor costs a request, per adapter: the service's CPU per
 * request on the baseline route through ConnectEnvelopeInterceptor over the bare baseline's, the two
 * measured A-B-B-A in this run (Nest's interceptor runner, and the Connect rendering that any envelope
 * does), and that difference as a share of the same run's bound-device login.
 */
export function interceptorLines(report: Report): string[] {
  return report.results.flatMap((r) => {
    const bare = r.against;
    if (r.scenario !== 'baseline-envelope' || !r.cpu || !bare?.cpu) return [];
    const cost = r.cpu.service - bare.cpu.service;
    const login = report.results.find((x) => x.adapter === r.adapter && x.scenario === 'bound')?.cpu;
    const share = login ? `: ${fmtPct(cost / login.service)} of a bound-device login's ${micros(login.service)} µs` : '';
    return [
      `${r.adapter}: the envelope interceptor costs ${micros(cost)} µs of service CPU per request${share} ` +
        `(baseline route through ConnectEnvelopeInterceptor ${micros(r.cpu.service)} µs against ${micros(bare.cpu.service)} µs bare, A-B-B-A; ` +
        `${fmtInt(r.rps)} against ${fmtInt(bare.rps)} req/s).`,
    ];
  });
}

/** Issue 39: Express, the default adapter, at most this many times Fastify's service CPU per bound-device login. */
export const ADAPTER_CPU_TARGET = 1.25;

/**
 * The service's CPU per bound-device login on Express and on Fastify in this run, and their ratio
 * against issue 39's target; null unless both adapters measured it with CPU figures.
 */
export function adapterCpuLine(results: Pick<ScenarioResult, 'adapter' | 'scenario' | 'cpu'>[]): string | null {
  const cpuOf = (adapter: string): number | undefined =>
    results.find((r) => r.adapter === adapter && r.scenario === 'bound')?.cpu?.service;
  const express = cpuOf('express');
  const fastify = cpuOf('fastify');
  if (express === undefined || fastify === undefined || fastify <= 0) return null;
  const ratio = express / fastify;
  return (
    `Service CPU per bound-device login: Express ${express.toFixed(3)} ms, Fastify ${fastify.toFixed(3)} ms, ` +
    `ratio ${ratio.toFixed(2)}× (target ≤ ${ADAPTER_CPU_TARGET}×: ${ratio <= ADAPTER_CPU_TARGET ? 'met' : 'missed'}).`
  );
}

/** The figures, CPU time, round trips and argon2 rate on the terminal. */
export function printReport(ctx: BenchContext, report: Report, log: (message: string) => void): void {
  log(`\n${ctx.label} — ${fmtInt(S.cards)} cards — autocannon ${S.connections} connections, ${S.duration} s per scenario\n`);
  log(textTable(report.results));
  log('\nCPU time per request (ms):');
  log(cpuTextTable(report.results));
  const adapterCpu = adapterCpuLine(report.results);
  if (adapterCpu) log(`\n${adapterCpu}`);
  log('\nround trips per request (sequential requests, idle service):');
  for (const line of roundTripLines(report.probe)) log(`  ${line}`);
  const argon = argonLine(report);
  if (argon) log(`\n${argon}`);
  const rss = rssLine(report);
  if (rss) log(`\n${rss}`);
  const interceptor = interceptorLines(report);
  if (interceptor.length) log(`\n${interceptor.join('\n')}`);
  const cluster = clusterLines(report);
  if (cluster.length) log(`\n${cluster.join('\n')}`);
  log(
    `\nThe load generator runs on the same ${report.machine.cores} cores as the service: ratios are comparable, absolute figures are pessimistic.`,
  );
  log(
    `1-minute load average before / at the end: ${report.machine.loadBefore.toFixed(2)} / ${report.loadAfter.toFixed(2)} (the bench itself accounts for about 2).`,
  );
}

/** The issue's target for the clustered service: its bound-device login at least this many times the single process's. */
const CLUSTER_TARGET = 1.5;

const fmtFigures = (x: ScenarioResult): string =>
  `${fmtInt(x.rps)} req/s (p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms)`;

/**
 * How many times the single process's rate this machine has room for at the single run's CPU per
 * request: its cores over the cores that run kept busy (the service, PostgreSQL, Redis, the load
 * generator, the kernel). Not a hard bound: a clustered service whose requests cost less (the load
 * generator's share falls as it batches more) can pass it, one whose requests cost more stays under
 * it. Null without CPU figures.
 */
export function clusterRoom(single: ScenarioResult): number | null {
  return single.cpu && single.cpu.busyShare > 0 ? 1 / single.cpu.busyShare : null;
}

/** The room clause of a cluster line: what the single run left of the machine, and what the clustered run used. */
function roomClause(r: ScenarioResult, s: ScenarioResult, cores: number): string {
  const room = clusterRoom(s);
  if (room === null || !s.cpu || !r.cpu) return '';
  const busy = (x: NonNullable<ScenarioResult['cpu']>): string => (x.busyShare * cores).toFixed(2);
  return (
    `; at the single process's CPU per request the ${cores} cores have room for ${room.toFixed(2)}× ` +
    `(it kept ${busy(s.cpu)} of them busy with PostgreSQL, Redis, the load generator and the kernel; the clustered run ${busy(r.cpu)})`
  );
}

/** One clustered run against the single process of the same adapter, measured A-B-B-A beside it. */
export function clusterLine(c: ClusterResult, cores: number): string {
  const { result: r, single: s } = c;
  const cpu = r.cpu
    ? `; service CPU per login ${r.cpu.service.toFixed(3)} ms over the primary and its workers (${r.cpu.serviceCores.toFixed(2)} cores busy)` +
      (s.cpu ? ` against ${s.cpu.service.toFixed(3)} ms` : '') +
      `, PostgreSQL ${r.cpu.postgres.toFixed(3)} ms`
    : '';
  const ratio = `: ${(r.rps / s.rps).toFixed(2)}× (target ≥ ${CLUSTER_TARGET}×${r.rps / s.rps >= CLUSTER_TARGET ? ', met' : ', missed'})`;
  const baseline = c.baseline
    ? ` The baseline route (no database) on the same two services: ${fmtFigures(c.baseline.result)} against ${fmtFigures(c.baseline.single)}, ` +
      `${(c.baseline.result.rps / c.baseline.single.rps).toFixed(2)}×${roomClause(c.baseline.result, c.baseline.single, cores)}.`
    : '';
  return (
    `${SCENARIOS.bound.title} (${r.adapter}), ${c.workers} workers ${fmtFigures(r)} against 1 process ${fmtFigures(s)}${ratio}${cpu}` +
    `${c.residentMb ? `; resident memory of all processes ${c.residentMb.toFixed(0)} MB` : ''}${failuresClause(r)}${roomClause(r, s, cores)}.${baseline}`
  );
}

function failuresClause(r: ScenarioResult): string {
  return r.non2xx || r.statusFalse || r.errors || !r.checkAfter
    ? ` — ${r.non2xx} non-2xx, ${r.statusFalse} refused, ${r.errors} errors${r.checkAfter ? '' : ', check after failed'}`
    : '';
}

/** The clustered runs, and what their round trips are: those of the single process. */
export function clusterLines(report: Pick<Report, 'cluster' | 'machine'>): string[] {
  if (!report.cluster?.length) return [];
  return [
    ...report.cluster.map((c) => clusterLine(c, report.machine.cores)),
    'Clustered runs: the bound-device login, then the baseline route, on a service started with WORKERS=N beside the single process of the same adapter, ' +
      "the two measured A-B-B-A (half the duration each time; the single figures here are those halves, not the table's row); " +
      "the room is the machine's cores over the cores the single halves kept busy, whoever used them; " +
      'round trips above are counted on the single process (in a clustered service the counter answers for worker 1 only).',
  ];
}

/** The service's resident memory per adapter (the issue: at most 250 MB under load). */
export function rssLine(report: Pick<Report, 'residentMb'>): string {
  const entries = Object.entries(report.residentMb);
  const text = entries.map(([adapter, mb]) => `${adapter} ${mb.now.toFixed(0)} MB (peak since start ${mb.peak.toFixed(0)} MB)`);
  return entries.length ? `Service resident memory after its scenarios: ${text.join(', ')}.` : '';
}

export function writeDoc(ctx: BenchContext, report: Report): void {
  const m = report.machine;
  const seed = report.seed ?? fail('no seeding was recorded');
  const argon = argonLine(report);
  const adapterCpu = adapterCpuLine(report.results);
  const block = [
    `### ${ctx.label}`,
    '',
    `Measured ${report.date} with \`${commandLine(ctx)}\` on ${report.code}.`,
    `Machine: ${m.cores} cores (${m.model}), ${m.memory} RAM, ${m.platform}, Node ${m.node}${ctx.versions ? `, ${ctx.versions}` : ''}.`,
    `Load: autocannon ${S.connections} connections, ${S.duration} s per scenario after a ${S.warmup} s warm-up, in the same process as the`,
    `orchestrator, on the same ${m.cores} cores as the service${ctx.pg ? ', PostgreSQL and Redis' : ''}.`,
    `1-minute load average before / at the end of the run: ${m.loadBefore.toFixed(2)} / ${report.loadAfter.toFixed(2)} (the bench itself accounts for about 2).`,
    `Data: ${fmtInt(S.cards)} cards seeded by ${seed.how} in ${seed.seconds.toFixed(1)} s; ${fmtInt(seed.preLogins)} pool cards logged in once beforehand` +
      (seed.cardSessions || seed.users
        ? `; ${fmtInt(seed.cardSessions)} SDK card sessions, ${fmtInt(seed.users)} program users (policy free) and ${fmtInt(seed.userSessions)} user sessions opened beforehand.`
        : '.'),
    '',
    markdownTable(report.results),
    '',
    `${CPU_NOTE}`,
    '',
    cpuMarkdownTable(report.results),
    ...(adapterCpu ? ['', adapterCpu] : []),
    '',
    `Round trips per request (${S.probeLogins} sequential requests each on the idle service, ${report.probeAdapter}): ${roundTripLines(report.probe).join('; ') || 'not measured'}.`,
    ...(argon ? ['', argon] : []),
    ...(rssLine(report) ? ['', rssLine(report)] : []),
    ...(interceptorLines(report).length ? ['', interceptorLines(report).join('\n\n')] : []),
    ...(clusterLines(report).length ? ['', clusterLines(report).join('\n\n')] : []),
  ].join('\n');
  writeSection(ctx.key, block);
}

/** Replaces the generated section `key` of docs/performance.md (between its markers) with `block`. */
export function writeSection(key: string, block: string): void {
  const begin = `<!-- bench:begin ${key} -->`;
  const end = `<!-- bench:end ${key} -->`;
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Performance\n';
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) doc = `${doc.slice(0, from + begin.length)}\n${block}\n${doc.slice(to)}`;
  else doc = `${doc.trimEnd()}\n\n${begin}\n${block}\n${end}\n`;
  mkdirSync(path.dirname(DOC), { recursive: true });
  writeFileSync(DOC, doc);
}
