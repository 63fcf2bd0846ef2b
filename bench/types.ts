// What the bench's modules pass between them.
import type { Client as PgClient } from 'pg';
import type { CpuPerRequest } from './cpu';
import type { Adapter, ScenarioName } from './settings';

/** One run: its random tag, where the data lives, and what to remove at the end. */
export interface BenchContext {
  tag: string;
  /** The docs/performance.md section. */
  key: 'postgresql' | 'embedded';
  label: string;
  /** The PostgreSQL database the service runs on (undefined: the embedded default). */
  databaseUrl?: string;
  /** A platform admin of the bench's own (created by the service at start, removed at the end on PostgreSQL). */
  adminUsername: string;
  adminPassword: string;
  cleanup: { authorId?: string; projectId?: string; adminUsername?: string };
  pg: PgClient | null;
  dataDir: string | null;
  buildCopy?: string;
  /** PostgreSQL / Redis versions for the report ('' on the embedded default). */
  versions?: string;
}

/** A session token with the machine it was opened on. */
export interface Session {
  token: string;
  machine: string;
}

export interface ProgramUser {
  username: string;
  password: string;
  machine: string;
}

/** The seeded project and the pools the scenarios draw from. */
export interface Fixture {
  programId: string;
  projectId: string;
  newDevice: string[];
  bound: string[];
  /** Count cards (decisions §13) with a bound device each and uses for the whole run. */
  count: string[];
  apiSecret: string;
  authorToken: string;
  cardSessions: Session[];
  users: ProgramUser[];
  userSessions: Session[];
}

export interface SeedSummary {
  how: string;
  seconds: number;
  preLogins: number;
  preLoginSeconds: number;
  cardSessions: number;
  users: number;
  userSessions: number;
  clientSeconds: number;
}

/** Database queries and Redis commands. */
export interface RoundTrips {
  pg: number;
  redis: number;
}

/** Round trips per request by scenario, in scenario order. */
export type RoundTripProbe = Partial<Record<ScenarioName, RoundTrips>>;

export interface ScenarioResult {
  adapter: Adapter;
  scenario: ScenarioName;
  rps: number;
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  statusFalse: number;
  errors: number;
  checkAfter: boolean;
  checkAfterDetail?: string;
  /** On `nonce`: how the replayed nonce was refused, or false when it was accepted. */
  replayRefused?: string | false;
  failures: string[];
  cpu: CpuPerRequest | null;
  /** The time in ms of each 2xx answer measured, until slices are merged into one result. */
  latencies?: number[];
  /** A targeted scenario's baseline: the mean req/s of the baseline slices interleaved with it (measure.ts, runInterleaved). */
  baselineAround?: number;
  /** Its ratio to that baseline: the median over the rounds of its slice against the baseline slices either side. */
  aroundRatio?: number;
  /** Each round's ratio, in order: how far the rounds agree. */
  roundRatios?: number[];
  /** A scenario measured A-B-B-A against a reference (scenarios.ts, COMPARED_WITH): the reference's halves. */
  against?: ScenarioResult;
}

/** The bound-device login on a clustered service, next to the single process of the same adapter and run. */
export interface ClusterResult {
  workers: number;
  result: ScenarioResult;
  /** The single process's bound-device login, measured A-B-B-A with the clustered one (run.ts, runClustered). */
  single: ScenarioResult;
  /** Resident memory of the primary and its workers together after the run, in MB. */
  residentMb?: number;
  /**
   * The baseline route (no database) on the same two services, A-B-B-A: how far the workers scale
   * a request that shares the cores with the load generator only.
   */
  baseline?: { result: ScenarioResult; single: ScenarioResult };
}

export interface ArgonRate {
  count: number;
  seconds: number;
  rate: number;
  msEach: number;
}

export interface MachineInfo {
  cores: number;
  model: string;
  memory: string;
  node: string;
  platform: string;
  loadBefore: number;
}

export interface Report {
  code: string;
  machine: MachineInfo;
  date: string;
  results: ScenarioResult[];
  probe: RoundTripProbe;
  probeAdapter?: Adapter;
  seed?: SeedSummary;
  argon?: ArgonRate;
  loadAfter: number;
  /** The service's resident memory in MB after each adapter's scenarios, and its peak since start. */
  residentMb: Partial<Record<Adapter, { now: number; peak: number }>>;
  /** BENCH_WORKERS: the bound-device login with more than one worker (run.ts). */
  cluster?: ClusterResult[];
}
