// The kit's driver (bench/kit/run.sh starts it with the kit's Node once PostgreSQL and Redis run).
// Seeds with the bench's own code (bench/seed.ts: direct-SQL cards, the bench's author and project,
// first logins, SDK card sessions), then for each adapter and worker count of the plan starts the
// service as `npm start` runs it (WORKERS=N), measures each scenario with several load-generator
// processes (loadgen.ts; every answer checked, a fully checked request before and after), reads the
// CPU time of every part from /proc, and writes the table and JSON to $OUT after every measurement
// (a run cut short keeps what it measured). Then the PostgreSQL diagnosis (diagnose.ts).
//
// Knobs (environment):
//   KIT_PLAN      adapter@workers=scenarios;… (default: Fastify 1,2,4,8,12 on baseline, bound, v3,
//                 card-heartbeat, new-device; Express 1 and 8 on baseline, bound; counts above the
//                 machine's cores are dropped)
//   KIT_SECS=8 KIT_WARMUP=2 KIT_CONNECTIONS=256 KIT_LOADGEN=ceil(cores/3) KIT_CARDS=10000 KIT_BOUND=1024
//   KIT_BUDGET_SECS=480: no worker count starts when the last one would not fit before it (the
//                 diagnosis's estimate kept aside)
//   KIT_DIAG=1 (0: no diagnosis) and its knobs in diagnose.ts
//   KIT_CPU_PROF=1: each service process (the primary, and every worker and its signing thread,
//                 which inherit its flags)
//                 writes a V8 CPU profile of its whole life to $OUT/profiles/<adapter>-<N>w/ when it
//                 stops; a plan of one scenario per start (fastify@8=bound) gives profiles of that
//                 scenario (node dist/bench/profile-summary.js <file>)
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectPg, newRun } from '../context';
import { api } from '../http';
import { requests, routeOf, succeeded } from '../scenarios';
import { seed, vacuumLoginTables } from '../seed';
import { S, type ScenarioName } from '../settings';
import type { Fixture } from '../types';
import { diagnose, type Diagnosis } from './diagnose';
import { BUCKET_MS, type LoadResult, type LoadRun } from './loadgen';
import { residentMb, snapshot, trees, used } from './procs';

const E = process.env;
const T0 = Number(E.KIT_T0 || Date.now() / 1000) * 1000;
const OUT = E.OUT || '';
const WORK = E.KIT_WORK || os.tmpdir();
const APP = E.KIT_APP || path.resolve(__dirname, '../../..');
const CORES = os.availableParallelism();

export function die(message: string): never {
  process.stderr.write(`\nKIT FAILED: ${message}\n`);
  killAll();
  process.exit(1);
}
export const log = (message: string): void =>
  void process.stdout.write(`[${((Date.now() - T0) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
export function num(name: string, fallback: number): number {
  const raw = E[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0) die(`${name} must be a non-negative number, got "${raw}"`);
  return v;
}
export const elapsed = (): number => (Date.now() - T0) / 1000;

type Adapter = 'fastify' | 'express';
const KNOWN: ScenarioName[] = ['baseline', 'bound', 'v3', 'card-heartbeat', 'new-device', 'nonce', 'count'];
interface Step {
  adapter: Adapter;
  workers: number;
  scenarios: ScenarioName[];
}

function parsePlan(raw: string): Step[] {
  const steps: Step[] = [];
  for (const part of raw
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(fastify|express)@([\d,]+)=([\w,-]+)$/.exec(part);
    if (!m) die(`KIT_PLAN: "${part}" is not adapter@workers=scenarios (e.g. fastify@1,2,4=bound,v3)`);
    const scenarios = m[3].split(',').filter(Boolean) as ScenarioName[];
    const unknown = scenarios.filter((s) => !KNOWN.includes(s));
    if (unknown.length) die(`KIT_PLAN: unknown scenario(s) ${unknown.join(', ')}; known: ${KNOWN.join(', ')}`);
    for (const w of m[2].split(',').filter(Boolean).map(Number)) {
      if (!Number.isInteger(w) || w < 1) die(`KIT_PLAN: bad worker count in "${part}"`);
      if (w > CORES) log(`note: ${m[1]} with ${w} workers dropped (${CORES} cores)`);
      else steps.push({ adapter: m[1] as Adapter, workers: w, scenarios });
    }
  }
  return steps;
}

const C = {
  plan: parsePlan(E.KIT_PLAN || 'fastify@1,2,4,8,12=baseline,bound,v3,card-heartbeat,new-device;express@1,8=baseline,bound'),
  seconds: num('KIT_SECS', 8) || 8,
  warmup: num('KIT_WARMUP', 2),
  connections: Math.round(num('KIT_CONNECTIONS', 256)) || 256,
  loadgen: Math.round(num('KIT_LOADGEN', Math.max(2, Math.ceil(CORES / 3)))) || 2,
  cards: Math.round(num('KIT_CARDS', 10_000)),
  bound: Math.round(num('KIT_BOUND', 1024)),
  budget: num('KIT_BUDGET_SECS', 480),
  diag: E.KIT_DIAG !== '0',
};
if (C.cards % 5 !== 0 || C.cards / 5 < C.bound) die('KIT_CARDS must be a multiple of 5 with KIT_CARDS / 5 >= KIT_BOUND');
if (!C.plan.length) die('KIT_PLAN has no step this machine can run');

// The bench's seed: 5 batches; batch 1 (device_limit 1000) is the new-device pool, batch 2 the bound one.
S.cards = C.cards;
S.batchSize = C.cards / 5;
S.boundPool = C.bound;
S.newDevicePool = S.batchSize;
S.cardSessions = Math.min(256, C.bound);
S.scenarios = ['baseline', 'bound', 'new-device', 'card-heartbeat'];

// ---------------------------------------------------------------- children
const children = new Set<ChildProcess>();
export function killAll(): void {
  for (const c of children) c.kill('SIGKILL');
}
process.on('SIGTERM', () => die('stopped (SIGTERM: the watchdog?)'));
process.on('SIGINT', () => die('interrupted'));

export interface RunningService {
  pid: number;
  adapter: Adapter;
  workers: number;
  base: string;
  bootSeconds: number;
  stop(): Promise<void>;
}

/** KIT_CPU_PROF=1: V8's CPU profiler on the service's processes, a folder per start. */
function profileFlags(adapter: Adapter, workers: number): string[] {
  if (E.KIT_CPU_PROF !== '1' || !OUT) return [];
  const dir = path.join(OUT, 'profiles', `${adapter}-${workers}w`);
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

export async function startService(adapter: Adapter, workers: number, env: Record<string, string>): Promise<RunningService> {
  const port = E.KIT_SERVICE_PORT || '53000';
  const nodeFlags = ['--heap-growing-percent=100', ...profileFlags(adapter, workers)];
  const child = spawn(process.execPath, [...nodeFlags, path.join(APP, 'dist/src/main.js')], {
    cwd: APP,
    env: {
      ...E,
      ...env,
      MALLOC_ARENA_MAX: '2',
      WORKERS: String(workers),
      HTTP_ADAPTER: adapter,
      PORT: port,
      HOST: '127.0.0.1',
      BENCH_BASELINE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let tail = '';
  const keep = (chunk: Buffer): void => void (tail = (tail + chunk.toString()).slice(-16384));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: string | null = null;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = `${code ?? signal}`;
      children.delete(child);
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const last = (): string => tail.split('\n').slice(-30).join('\n');
  for (let serving = 0; ;) {
    if (exited !== null) die(`the service (${adapter}, WORKERS=${workers}) exited during start (${exited}):\n${last()}`);
    if (Date.now() - started > 120_000)
      die(`the service (${adapter}, WORKERS=${workers}) was not serving after 120 s:\n${last()}`);
    try {
      if (workers === 1)
        serving = (await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(2000) })).status === 200 ? 1 : 0;
      else {
        const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
        serving = Number(/^cluster_workers\{state="serving"\} (\d+)$/m.exec(text)?.[1] ?? 0);
      }
    } catch {
      // not listening yet
    }
    if (serving >= workers) break;
    await sleep(200);
  }
  return {
    pid: child.pid ?? -1,
    adapter,
    workers,
    base,
    bootSeconds: (Date.now() - started) / 1000,
    async stop() {
      if (exited === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------- load generators
export interface Loadgens {
  pids(): number[];
  run(name: ScenarioName, url: string, seconds: number, tag: string): Promise<LoadResult[]>;
}

async function startLoadgens(fixture: Fixture): Promise<Loadgens> {
  const procs = Array.from({ length: C.loadgen }, (_, index) => {
    const child = fork(path.join(__dirname, 'loadgen.js'), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.add(child);
    const waiters: ((m: Record<string, unknown>) => void)[] = [];
    child.on('message', (m: Record<string, unknown>) => waiters.shift()?.(m));
    child.once('exit', (code) => {
      children.delete(child);
      for (const w of waiters.splice(0)) w({ error: `load generator ${index} exited (${code})` });
    });
    return { child, index, waiters };
  });
  const all = async (msg: (i: number) => Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>[]> => {
    const answers = await Promise.all(
      procs.map(
        (p) =>
          new Promise<Record<string, unknown>>((resolve) => {
            const timer = setTimeout(() => resolve({ error: `load generator ${p.index} did not answer in time` }), timeoutMs);
            p.waiters.push((m) => {
              clearTimeout(timer);
              resolve(m);
            });
            p.child.send(msg(p.index));
          }),
      ),
    );
    const bad = answers.find((a) => a.error);
    if (bad) die(`load generator: ${String(bad.error)}`);
    return answers;
  };
  await all((index) => ({ cmd: 'init', fixture, index, count: procs.length }), 30_000);
  const share = (i: number): number => Math.floor(C.connections / procs.length) + (i < C.connections % procs.length ? 1 : 0);
  return {
    pids: () => procs.map((p) => p.child.pid ?? -1),
    async run(name, url, seconds, tag) {
      const answers = await all(
        (i) => ({ cmd: 'run', name, url, connections: share(i), seconds, tag }) satisfies LoadRun,
        (seconds + 40) * 1000,
      );
      return answers.map((a) => a.result as LoadResult);
    },
  };
}

// ---------------------------------------------------------------- one measurement
export interface Result {
  adapter: Adapter;
  workers: number;
  scenario: ScenarioName;
  rps: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  statusFalse: number;
  errors: number;
  checked: boolean;
  failures: string[];
  /** CPU ms per request. */
  ms: { service: number; postgres: number; redis: number; loadgen: number; other: number };
  /** CPU time over wall time (1 = one core busy all along). */
  cores: { service: number; postgres: number; redis: number; loadgen: number; busiestLoadgen: number; machine: number };
  serviceRssMb: number;
}

function percentile(hist: Map<number, number>, total: number, p: number): number {
  const want = Math.ceil(p * total);
  let seen = 0;
  for (const b of [...hist.keys()].sort((x, y) => x - y)) {
    seen += hist.get(b) ?? 0;
    if (seen >= want) return b * BUCKET_MS;
  }
  return NaN;
}

async function check(service: RunningService, name: ScenarioName, fixture: Fixture, tag: string): Promise<string | null> {
  const req = requests(name, fixture, tag)();
  const res = await api(service.base, 'POST', routeOf(name, fixture), req);
  return res.status === 200 && succeeded(name, res.body) ? null : `HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
}

export async function measure(
  service: RunningService,
  loadgens: Loadgens,
  name: ScenarioName,
  fixture: Fixture,
  tag: string,
  pg: Awaited<ReturnType<typeof connectPg>>,
  seconds = C.seconds,
  hooks?: { before(): Promise<void>; after(): Promise<void> },
): Promise<Result> {
  await vacuumLoginTables(pg);
  const bad = await check(service, name, fixture, `${tag}-c0`);
  if (bad) die(`${service.adapter} WORKERS=${service.workers} ${name}: the request checked before measuring failed: ${bad}`);
  if (C.warmup > 0) await loadgens.run(name, service.base, C.warmup, `${tag}-w`);
  const roots = {
    service: [service.pid],
    postgres: [Number(E.KIT_PG_PID)],
    redis: [Number(E.KIT_REDIS_PID)],
    loadgen: loadgens.pids(),
  };
  await hooks?.before();
  const s0 = snapshot(roots);
  const parts = await loadgens.run(name, service.base, seconds, tag);
  const s1 = snapshot(roots);
  const rss = residentMb(trees({ s: [service.pid] }).s.keys());
  await hooks?.after();
  const after = await check(service, name, fixture, `${tag}-c1`);
  const hist = new Map<number, number>();
  for (const p of parts) for (const [b, n] of p.histogram) hist.set(b, (hist.get(b) ?? 0) + n);
  const sum = (k: 'total' | 'ok2xx' | 'non2xx' | 'mismatches' | 'errors'): number => parts.reduce((t, p) => t + p[k], 0);
  const total = sum('total');
  const wall = s1.at - s0.at;
  const u = {
    service: used(s0, s1, 'service'),
    postgres: used(s0, s1, 'postgres'),
    redis: used(s0, s1, 'redis'),
    loadgen: used(s0, s1, 'loadgen'),
  };
  const busy = s1.machineBusy - s0.machineBusy;
  const other = Math.max(0, busy - u.service - u.postgres - u.redis - u.loadgen);
  const per = (v: number): number => (total ? v / total : NaN);
  const ok = sum('ok2xx');
  return {
    adapter: service.adapter,
    workers: service.workers,
    scenario: name,
    rps: parts.reduce((t, p) => t + (p.duration > 0 ? p.total / p.duration : 0), 0),
    total,
    p50: percentile(hist, ok, 0.5),
    p99: percentile(hist, ok, 0.99),
    max: Math.max(...hist.keys()) * BUCKET_MS,
    non2xx: sum('non2xx'),
    statusFalse: sum('mismatches'),
    errors: sum('errors'),
    checked: after === null,
    failures: [...parts.flatMap((p) => p.failures), ...(after ? [`check after: ${after}`] : [])].slice(0, 4),
    ms: { service: per(u.service), postgres: per(u.postgres), redis: per(u.redis), loadgen: per(u.loadgen), other: per(other) },
    cores: {
      service: u.service / wall,
      postgres: u.postgres / wall,
      redis: u.redis / wall,
      loadgen: u.loadgen / wall,
      busiestLoadgen: Math.max(...parts.map((p) => p.cpuMs / (p.duration * 1000))),
      machine: busy / wall,
    },
    serviceRssMb: rss,
  };
}

// ---------------------------------------------------------------- output
const SHORT: Partial<Record<ScenarioName, string>> = {
  baseline: 'bare route',
  bound: 'bound login',
  v3: 'V3 login',
  'card-heartbeat': 'card heartbeat',
  'new-device': 'new-device login',
};
export const f0 = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');
export const f1 = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '—');
export const f2 = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : '—');
export const f3 = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : '—');

export function grid(head: string[], rows: string[][], left = 1): string {
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i < left ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  return [line(head), width.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The issue's table: req/s per worker count and scenario, with the factor over one worker. */
function summary(results: Result[], adapter: Adapter): string {
  const mine = results.filter((r) => r.adapter === adapter);
  if (!mine.length) return '';
  const scenarios = KNOWN.filter((s) => mine.some((r) => r.scenario === s));
  const workers = [...new Set(mine.map((r) => r.workers))].sort((a, b) => a - b);
  const rows = workers.map((w) => [
    String(w),
    ...scenarios.map((s) => {
      const r = mine.find((x) => x.workers === w && x.scenario === s);
      const one = mine.find((x) => x.workers === 1 && x.scenario === s);
      if (!r) return '—';
      return w > 1 && one ? `${f0(r.rps)} (${(r.rps / one.rps).toFixed(2)}×)` : f0(r.rps);
    }),
  ]);
  return `${adapter}, req/s (× one worker):\n${grid(['workers', ...scenarios.map((s) => SHORT[s] ?? s)], rows)}`;
}

/** Express against Fastify: the service's CPU per bound-device login at each worker count both ran. */
function adapterRatio(results: Result[]): string {
  const bound = results.filter((r) => r.scenario === 'bound');
  return bound
    .filter((r) => r.adapter === 'express')
    .flatMap((e) => {
      const f = bound.find((r) => r.adapter === 'fastify' && r.workers === e.workers);
      return f
        ? [
            `bound login, WORKERS=${e.workers}: service CPU per login Express ${f3(e.ms.service)} ms, Fastify ${f3(f.ms.service)} ms (${(e.ms.service / f.ms.service).toFixed(2)}×); req/s ${(e.rps / f.rps).toFixed(2)}× Fastify's`,
          ]
        : [];
    })
    .join('\n');
}

function detail(results: Result[]): string {
  const head = [
    'adapter',
    'workers',
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'failed',
    'svc ms/req',
    'pg ms/req',
    'redis ms/req',
    'lg ms/req',
    'svc cores',
    'pg cores',
    'lg cores',
    'busy cores',
    'svc RSS MB',
  ];
  const rows = results.map((r) => [
    r.adapter,
    String(r.workers),
    SHORT[r.scenario] ?? r.scenario,
    f0(r.rps),
    f1(r.p50),
    f1(r.p99),
    String(r.non2xx + r.statusFalse + r.errors + (r.checked ? 0 : 1)),
    f3(r.ms.service),
    f3(r.ms.postgres),
    f3(r.ms.redis),
    f3(r.ms.loadgen),
    f2(r.cores.service),
    f2(r.cores.postgres),
    f2(r.cores.loadgen),
    f2(r.cores.machine),
    f0(r.serviceRssMb),
  ]);
  return grid(head, rows, 3);
}

interface Report {
  date: string;
  complete: boolean;
  build: string;
  machine: Record<string, unknown>;
  settings: typeof C & { pgdataFs?: string };
  seed?: unknown;
  boots: { adapter: Adapter; workers: number; seconds: number }[];
  results: Result[];
  diagnosis?: Diagnosis;
  diagnosisText?: string;
  notes: string[];
}

function write(report: Report): void {
  const m = report.machine;
  const text = [
    `card-key service, many-core kit (npm run bench:kit) — ${report.date}${report.complete ? '' : ' (INCOMPLETE)'}`,
    `build: ${report.build}`,
    `machine: ${String(m.cores)} cores (${String(m.model)}), ${String(m.memoryGiB)} GiB, Linux ${String(m.kernel)}; Node ${String(m.node)}, ${String(m.postgres)}, Redis ${String(m.redis)}; PGDATA on ${report.settings.pgdataFs ?? '?'}`,
    `load: autocannon, ${C.connections} connections over ${C.loadgen} processes, ${C.seconds} s measured after ${C.warmup} s warm-up; durable commits; ${C.cards.toLocaleString('en-US')} cards, ${C.bound} bound devices`,
    '',
    summary(report.results, 'fastify'),
    '',
    summary(report.results, 'express'),
    adapterRatio(report.results),
    '',
    detail(report.results),
    '',
    'failed: non-2xx + HTTP 200 refusals (status false / code != 0) + socket errors + the checked request after; must be 0.',
    'ms/req: CPU ms per request from /proc (svc = primary + workers; pg = postmaster + backends; lg = load generators);',
    'cores: CPU time over wall time; busy cores: the whole machine (every process, kernel); svc RSS: primary + workers after the run.',
    ...(report.diagnosisText ? ['', report.diagnosisText] : []),
    ...report.notes,
  ].join('\n');
  if (!OUT) return;
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, 'kit-results.json'), JSON.stringify(report, null, 2));
  writeFileSync(path.join(OUT, 'kit-results.txt'), `${text}\n`);
}

// ---------------------------------------------------------------- main
async function main(): Promise<void> {
  const databaseUrl = `postgres://postgres@127.0.0.1:${E.KIT_PG_PORT}/cardkey`;
  const admin = await connectPg(`postgres://postgres@127.0.0.1:${E.KIT_PG_PORT}/postgres`);
  await admin.query('CREATE DATABASE cardkey');
  const pgVersion = (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? '?';
  const report: Report = {
    date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    complete: false,
    build: E.KIT_MANIFEST || '?',
    machine: {
      cores: CORES,
      model: os.cpus()[0]?.model ?? '?',
      memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
      kernel: os.release(),
      node: process.version,
      postgres: `PostgreSQL ${pgVersion.split(' ')[0]}`,
      redis: E.KIT_REDIS_VERSION || '?',
    },
    settings: { ...C, pgdataFs: E.KIT_PGDATA_FS },
    boots: [],
    results: [],
    notes: [],
  };
  const { ctx, childEnv } = newRun(databaseUrl);
  Object.assign(childEnv, {
    REDIS_URL: `redis://127.0.0.1:${E.KIT_REDIS_PORT}`,
    APP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    DATA_DIR: path.join(WORK, 'service-data'),
    LOG_LEVEL: 'warn',
  });
  ctx.pg = await connectPg(databaseUrl);
  const pg = ctx.pg;
  log(
    `plan: ${C.plan.map((s) => `${s.adapter} ×${s.workers}`).join(', ')}; ${C.connections} connections over ${C.loadgen} load generators, ${C.seconds} s each`,
  );

  let fixture: Fixture | null = null;
  let loadgens: Loadgens | null = null;
  let lastStep = 0;
  const diagReserve = C.diag ? Number(E.KIT_DIAG_RESERVE_SECS || 110) : 0;
  for (const step of C.plan) {
    const left = C.budget - diagReserve - elapsed();
    if (fixture && lastStep > left) {
      const note = `SKIPPED from ${step.adapter} WORKERS=${step.workers} on: ${left.toFixed(0)} s left of KIT_BUDGET_SECS=${C.budget} (diagnosis ${diagReserve} s kept aside), a step took ${lastStep.toFixed(0)} s`;
      log(note);
      report.notes.push(note);
      break;
    }
    const t = Date.now();
    const service = await startService(step.adapter, step.workers, childEnv);
    report.boots.push({ adapter: step.adapter, workers: step.workers, seconds: service.bootSeconds });
    log(`${step.adapter} WORKERS=${step.workers}: serving after ${service.bootSeconds.toFixed(1)} s`);
    try {
      if (!fixture) {
        const seeded = await seed({ base: service.base } as Parameters<typeof seed>[0], ctx);
        fixture = seeded.fixture;
        report.seed = seeded.seed;
        log(
          `seeded ${C.cards} cards in ${seeded.seed.seconds.toFixed(1)} s, ${seeded.seed.preLogins} first logins in ${seeded.seed.preLoginSeconds.toFixed(1)} s, ${seeded.seed.cardSessions} card sessions`,
        );
        loadgens = await startLoadgens(fixture);
      }
      for (const name of step.scenarios) {
        const r = await measure(
          service,
          loadgens as Loadgens,
          name,
          fixture,
          `${ctx.tag}-${step.adapter[0]}${step.workers}-${name}`,
          pg,
        );
        report.results.push(r);
        const failed = r.non2xx + r.statusFalse + r.errors;
        log(
          `  ${SHORT[name] ?? name}: ${f0(r.rps)}/s, p50 ${f1(r.p50)} ms, p99 ${f1(r.p99)} ms; ms/req service ${f3(r.ms.service)} PostgreSQL ${f3(r.ms.postgres)}; ` +
            `cores service ${f2(r.cores.service)} PostgreSQL ${f2(r.cores.postgres)} load ${f2(r.cores.loadgen)} (busiest ${f2(r.cores.busiestLoadgen)}) machine ${f2(r.cores.machine)}` +
            (failed || !r.checked ? `; FAILED ${failed} answers ${JSON.stringify(r.failures)}` : ''),
        );
        write(report);
      }
    } finally {
      await service.stop();
    }
    lastStep = (Date.now() - t) / 1000;
  }
  if (C.diag && fixture && loadgens) {
    const diag = await diagnose({
      childEnv,
      fixture,
      loadgens,
      pg,
      tag: ctx.tag,
      startService,
      measure,
      connectPg,
      log,
      report(d, text) {
        report.diagnosis = d;
        report.diagnosisText = text;
        write(report);
      },
    });
    report.diagnosis = diag.diagnosis;
    report.diagnosisText = diag.text;
  }
  const failed = report.results.filter((r) => r.non2xx || r.statusFalse || r.errors || !r.checked || !r.total);
  if (failed.length)
    report.notes.push(`FAILED ANSWERS in ${failed.map((r) => `${r.adapter} WORKERS=${r.workers} ${r.scenario}`).join(', ')}`);
  report.complete = true;
  write(report);
  process.stdout.write(
    `\n${summary(report.results, 'fastify')}\n\n${summary(report.results, 'express')}\n${adapterRatio(report.results)}\n\n${detail(report.results)}\n\n${report.diagnosisText ?? ''}\n${report.notes.join('\n')}\n`,
  );
  await pg.end().catch(() => undefined);
  await admin.end().catch(() => undefined);
  killAll();
  process.exit(failed.length ? 3 : 0);
}

if (require.main === module)
  main().catch((error: unknown) => die(error instanceof Error ? (error.stack ?? error.message) : String(error)));
