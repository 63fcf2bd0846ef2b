// The bench's knobs (environment variables, checked before anything starts) and fixed sizes.
import os from 'node:os';
import path from 'node:path';

/** The repository: two levels above the compiled module (dist/bench/), one above a source module. */
function repositoryRoot(): string {
  const up = path.resolve(__dirname, '..');
  return path.basename(up) === 'dist' ? path.dirname(up) : up;
}

export const ROOT = repositoryRoot();
export const MAIN = path.join(ROOT, 'dist/src/main.js');
export const PRELOAD = path.join(ROOT, 'bench/count-round-trips.cjs');
export const BARE_HTTP = path.join(ROOT, 'dist/bench/bare-http.js');
export const DOC = path.join(ROOT, 'docs/performance.md');
export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';

export class BenchError extends Error {}

export function fail(message: string): never {
  throw new BenchError(message);
}

/** A bad knob stops the run before anything starts. */
function badSetting(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) badSetting(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function list<T extends string>(name: string, allowed: readonly T[], fallback: readonly T[] = allowed): T[] {
  const raw = process.env[name];
  if (!raw) return [...fallback];
  const values = raw
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const known: readonly string[] = allowed;
  const unknown = values.filter((v) => !known.includes(v));
  if (unknown.length || !values.length)
    badSetting(`${name}: unknown value(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`);
  return allowed.filter((v) => values.includes(v));
}

export const DEFAULT_ADAPTERS = ['express', 'fastify'] as const;
/** A service's HTTP adapter, or `node:http`: the bare server of bench/bare-http.ts (baseline only). */
export type Adapter = (typeof DEFAULT_ADAPTERS)[number] | 'node:http';

export const ALL_SCENARIOS = [
  'baseline',
  'baseline-envelope',
  'bound',
  'bound-unsigned',
  'count',
  'new-device',
  'nonce',
  'v3',
  'v3-unsigned',
  'card-heartbeat',
  'user-login',
  'user-heartbeat',
] as const;
export type ScenarioName = (typeof ALL_SCENARIOS)[number];

/**
 * `npm run bench:scale` (BENCH_SCALE=1, PostgreSQL only): the login scenarios at the usual 100,000
 * cards, then again after the platform grew to a million cards and ten million log rows, and the
 * author's reads at that size (bench/scale.ts).
 */
export const SCALE = process.env.BENCH_SCALE === '1';
const SCALE_ADAPTERS: readonly Adapter[] = ['fastify'];
const SCALE_SCENARIOS: readonly ScenarioName[] = ['baseline', 'bound', 'new-device', 'v3', 'card-heartbeat', 'user-heartbeat'];

export interface ScaleSettings {
  /** Cards of the bench's project after growing (the first 100,000 are the usual ones). */
  cards: number;
  /** Login-log rows of the project after growing, spread over the last 365 days. */
  logRows: number;
  /** Timed requests per admin read (after 3 untimed ones). */
  readRepeats: number;
}

export const SCALE_SIZES: ScaleSettings = {
  cards: positive('BENCH_SCALE_CARDS', 1_000_000),
  logRows: positive('BENCH_SCALE_LOG_ROWS', 10_000_000),
  readRepeats: 20,
};

/**
 * BENCH_WORKERS (e.g. `1,2`): worker counts for the bound-device login. The scenarios always run on
 * one process (WORKERS=1); every count above 1 runs the bound-device login again on a service
 * clustered with that many workers (PostgreSQL + Redis only: the embedded default is one process),
 * right after the single process of the same adapter, and prints the ratio. Default: 1 and one per
 * core (2 here) on PostgreSQL + Redis when the bound scenario runs, else 1 alone.
 */
function workerCounts(): number[] {
  const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  const raw = process.env.BENCH_WORKERS;
  if (raw === undefined || raw === '') return shared && os.availableParallelism() > 1 ? [1, os.availableParallelism()] : [1];
  const values = raw
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!values.length || values.some((v) => !/^[1-9]\d{0,2}$/.test(v)))
    badSetting(`BENCH_WORKERS must list worker counts (e.g. 1,2), got "${raw}"`);
  const counts = [...new Set(values.map(Number))].sort((a, b) => a - b);
  if (counts.some((n) => n > 1) && !shared)
    badSetting('BENCH_WORKERS above 1 needs DATABASE_URL and REDIS_URL (the embedded default is one process)');
  return counts;
}

export interface Settings {
  cards: number;
  batchSize: number;
  /**
   * Cards logged in once before measuring, then hammered with their bound device. Requests take
   * them round-robin, so the 64 in flight always hold 64 different cards (no row-lock queue).
   */
  boundPool: number;
  /** Cards with device_limit 1000 that get a new device on every request (about 15 each per run). */
  newDevicePool: number;
  newDeviceLimit: number;
  /** SDK card sessions opened before measuring (on the first cards of the bound pool, with their device). */
  cardSessions: number;
  /** Program users registered before measuring (user_machine_policy 'free'), each logged in this often for the session pool. */
  users: number;
  sessionsPerUser: number;
  /** argon2 hash() in the bench process: concurrent calls and seconds. */
  argonConcurrency: number;
  argonSeconds: number;
  connections: number;
  /** Seconds per measured run (halved while a signed / unsigned pair runs). */
  duration: number;
  warmup: number;
  adapters: Adapter[];
  scenarios: ScenarioName[];
  cpuProfDir: string | null;
  /** Sequential logins per scenario when counting database / Redis round trips. */
  probeLogins: number;
  /** Worker counts of the bound-device login (BENCH_WORKERS); the counts above 1 run clustered. */
  workers: number[];
}

export const S: Settings = {
  cards: 100_000,
  batchSize: 10_000,
  boundPool: 512,
  newDevicePool: 256,
  newDeviceLimit: 1_000,
  cardSessions: 256,
  users: 64,
  sessionsPerUser: 2,
  argonConcurrency: 4,
  argonSeconds: 5,
  connections: positive('BENCH_CONNECTIONS', 64),
  duration: positive('BENCH_DURATION', 10),
  warmup: positive('BENCH_WARMUP', 2),
  adapters: list<Adapter>('BENCH_ADAPTERS', DEFAULT_ADAPTERS, SCALE ? SCALE_ADAPTERS : DEFAULT_ADAPTERS),
  scenarios: list('BENCH_SCENARIOS', ALL_SCENARIOS, SCALE ? SCALE_SCENARIOS : ALL_SCENARIOS),
  cpuProfDir: process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null,
  probeLogins: 20,
  workers: workerCounts(),
};

/** The worker counts above 1 that the bound-device login runs with too (a clustered service each). */
export const CLUSTERED = S.scenarios.includes('bound') && !SCALE ? S.workers.filter((n) => n > 1) : [];

const IS_DEFAULT_RUN =
  S.connections === 64 &&
  S.duration === 10 &&
  S.warmup === 2 &&
  !S.cpuProfDir &&
  !process.env.BENCH_WORKERS &&
  S.adapters.join() === (SCALE ? SCALE_ADAPTERS : DEFAULT_ADAPTERS).join() &&
  S.scenarios.join() === (SCALE ? SCALE_SCENARIOS : ALL_SCENARIOS).join() &&
  (!SCALE || (SCALE_SIZES.cards === 1_000_000 && SCALE_SIZES.logRows === 10_000_000));

/** Whether this run writes its figures into docs/performance.md. */
export const WRITE_DOC = process.env.BENCH_WRITE_DOC ? process.env.BENCH_WRITE_DOC === '1' : IS_DEFAULT_RUN;
