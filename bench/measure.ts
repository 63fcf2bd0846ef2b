// Measuring: checked sample requests, autocannon runs, signed / unsigned pairs, round-trip
// probes and argon2 throughput.
import autocannon from 'autocannon';
import { cpuPerRequest, cpuSnapshot, hrMicros, type CpuPerRequest } from './cpu';
import { adminCall, api, prop, type ApiAnswer } from './http';
import {
  COMPARED_WITH,
  requests,
  routeOf,
  SCENARIOS,
  SIGNED_TWIN,
  STANDARD,
  succeeded,
  targetOn,
  UNSIGNED_TWIN,
  type BenchRequest,
} from './scenarios';
import type { Service } from './service-process';
import { ALL_SCENARIOS, fail, S, type ScenarioName } from './settings';
import { interleavedRatio, mean, percentile } from './stats';
import { fmtInt, fmtMs, fmtPct } from './tables';
import type { ArgonRate, Fixture, RoundTripProbe, ScenarioResult } from './types';

/** The measured windows of each adapter / scenario (one per slice), for bench/profile-summary.ts --window. */
export const profileWindows: Record<string, { from: number; to: number }[]> = {};

/**
 * One request checked in full: HTTP 200 and a JSON body with status === true (and a token on
 * logins), or on the standard routes code 0 and success true (and a token on logins).
 */
async function sample(
  base: string,
  name: ScenarioName,
  route: string,
  request: BenchRequest,
): Promise<ApiAnswer & { ok: boolean }> {
  const res = await api(base, 'POST', route, request);
  const ok = res.status === 200 && succeeded(name, res.body);
  return { ok, status: res.status, body: res.body };
}

/** Every answer body checked during the run (a cheap prefix test for Connect, parsed on the standard routes). */
function bodyCheck(name: ScenarioName, failures: string[]): (body: string) => boolean {
  const ok = STANDARD.has(name)
    ? (body: string): boolean => {
        try {
          const parsed: unknown = JSON.parse(body);
          return prop(parsed, 'code') === 0 && prop(parsed, 'success') === true;
        } catch {
          return false;
        }
      }
    : // Connect refusals are HTTP 200 with status false; success bodies of Connect and the baseline both start like this.
      (body: string): boolean => body.startsWith('{"status":true');
  return (body) => {
    if (ok(body)) return true;
    if (failures.length < 3) failures.push(body.slice(0, 300));
    return false;
  };
}

function cannon(
  base: string,
  name: ScenarioName,
  route: string,
  nextRequest: () => BenchRequest,
  duration: number,
  failures: string[] = [],
  latencies?: number[],
) {
  const instance = autocannon({
    url: base,
    connections: S.connections,
    duration,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: route,
        setupRequest: (req) => {
          const { headers, body } = nextRequest();
          return { ...req, headers: { ...req.headers, ...headers }, body };
        },
      },
    ],
    verifyBody: bodyCheck(name, failures),
  });
  // The time of every 2xx answer, as autocannon's own latency histogram counts them: slices of one
  // scenario then give the percentiles of all their answers together (mergeSlices).
  if (latencies) {
    void instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  }
  return instance;
}

export async function runScenario(
  service: Service,
  name: ScenarioName,
  fixture: Fixture,
  runTag: string,
): Promise<ScenarioResult> {
  const route = routeOf(name, fixture);
  const nextRequest = requests(name, fixture, runTag);
  const before = await sample(service.base, name, route, nextRequest());
  if (!before.ok)
    fail(`${service.adapter} / ${name}: the check before measuring failed: HTTP ${before.status} ${JSON.stringify(before.body)}`);
  await cannon(service.base, name, route, nextRequest, S.warmup);
  const from = hrMicros();
  const failures: string[] = [];
  const cpuBefore = cpuSnapshot(service.pid, service.workers > 1);
  const latencies: number[] = [];
  const r = await cannon(service.base, name, route, nextRequest, S.duration, failures, latencies);
  const cpu = cpuPerRequest(cpuBefore, cpuSnapshot(service.pid, service.workers > 1), r.requests.total);
  if (S.cpuProfDir) (profileWindows[`${service.adapter}/${name}`] ??= []).push({ from, to: hrMicros() });
  const afterRequest = nextRequest();
  const after = await sample(service.base, name, route, afterRequest);
  let replayRefused: string | false | undefined;
  if (name === 'nonce') {
    // The nonce of the last check, sent again: must be refused (HTTP 409, status false).
    const replay = await api(service.base, 'POST', route, afterRequest);
    replayRefused =
      prop(replay.body, 'status') === false ? `HTTP ${replay.status}, code ${String(prop(replay.body, 'code'))}` : false;
  }
  return {
    adapter: service.adapter,
    scenario: name,
    // Answers over the measured time, not autocannon's mean of whole seconds: a slice may last 1.7 s.
    rps: r.duration > 0 ? r.requests.total / r.duration : r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    latencies,
    non2xx: r.non2xx,
    statusFalse: r.mismatches,
    errors: r.errors + r.timeouts,
    checkAfter: after.ok,
    checkAfterDetail: after.ok ? undefined : `HTTP ${after.status} ${JSON.stringify(after.body)}`,
    replayRefused,
    failures,
    cpu,
  };
}

/** Switches the benchmark project's signed answers on or off (the admin PATCH drops the cached program everywhere). */
async function setResponseSigning(service: Service, fixture: Fixture, on: boolean): Promise<void> {
  const options = { token: fixture.authorToken, json: { response_signing: on } };
  await adminCall(service.base, 'PATCH', `/admin/v1/projects/${fixture.projectId}`, options, 200);
}

/**
 * A scenario with signed answers and its unsigned twin, in A-B-B-A order with half the duration
 * each, so that whatever drifts during the run (autovacuum, caches, a neighbour) weighs on both
 * alike. Each result merges its two halves: mean rate and p50, the worse p99, summed counts.
 */
export async function runSigningPair(
  service: Service,
  signedName: ScenarioName,
  unsignedName: ScenarioName,
  fixture: Fixture,
  runTag: string,
): Promise<[ScenarioResult, ScenarioResult]> {
  return runPair(service, signedName, unsignedName, fixture, runTag, (on) => setResponseSigning(service, fixture, !on));
}

/**
 * Two measurements A-B-B-A, each given its half of the duration and a part tag (a1, b1, b2, a2), so
 * that a drift of the machine or of the database over the run weighs on both alike.
 */
async function abba(
  measureA: (seconds: number, part: string) => Promise<ScenarioResult>,
  measureB: (seconds: number, part: string) => Promise<ScenarioResult>,
): Promise<[ScenarioResult, ScenarioResult]> {
  const half = S.duration / 2;
  const a1 = await measureA(half, 'a1');
  const b1 = await measureB(half, 'b1');
  const b2 = await measureB(half, 'b2');
  const a2 = await measureA(half, 'a2');
  return [mergeSlices([a1, a2]), mergeSlices([b1, b2])];
}

/**
 * Two scenarios on one service, A-B-B-A (abba). `aroundB(true)` runs before each B half,
 * `aroundB(false)` after.
 */
export async function runPair(
  service: Service,
  aName: ScenarioName,
  bName: ScenarioName,
  fixture: Fixture,
  runTag: string,
  aroundB: (entering: boolean) => Promise<void> = async () => undefined,
): Promise<[ScenarioResult, ScenarioResult]> {
  return abba(
    (seconds, part) => runFor(service, aName, fixture, `${runTag}-${part}`, seconds),
    async (seconds, part) => {
      await aroundB(true);
      try {
        return await runFor(service, bName, fixture, `${runTag}-${part}`, seconds);
      } finally {
        await aroundB(false);
      }
    },
  );
}

/**
 * One scenario on two services running side by side (the single process and the clustered one, or
 * two databases), A-B-B-A (abba). B warms up `bWarmup` seconds before each of its halves (each
 * cluster worker has its JIT to warm).
 */
export async function runOnBoth(
  a: Service,
  b: Service,
  name: ScenarioName,
  fixture: Fixture,
  runTag: string,
  bWarmup: number,
): Promise<[ScenarioResult, ScenarioResult]> {
  return abba(
    (seconds, part) => runFor(a, name, fixture, `${runTag}-${part}`, seconds),
    async (seconds, part) => {
      const warmup = S.warmup;
      S.warmup = bWarmup;
      try {
        return await runFor(b, name, fixture, `${runTag}-${part}`, seconds);
      } finally {
        S.warmup = warmup;
      }
    },
  );
}

/** runScenario measured for `seconds` instead of S.duration (and warmed up `warmup` seconds instead of S.warmup). */
export async function runFor(
  service: Service,
  name: ScenarioName,
  fixture: Fixture,
  runTag: string,
  seconds: number,
  warmup = S.warmup,
): Promise<ScenarioResult> {
  const saved = { duration: S.duration, warmup: S.warmup };
  S.duration = seconds;
  S.warmup = warmup;
  try {
    return await runScenario(service, name, fixture, runTag);
  } finally {
    Object.assign(S, saved);
  }
}

/** Rounds of an interleaved measurement (runInterleaved). */
const ROUNDS = 6;
/** Warm-up of every slice after a scenario's first, in seconds: the service is warm, only the load generator's connections are new. */
const SLICE_WARMUP = 0.5;

/** One measured slice of a scenario: its length and warm-up in seconds, and a tag for its requests. */
type SliceRunner = (seconds: number, warmup: number, part: string) => Promise<ScenarioResult>;

/**
 * Scenarios with a target, interleaved with slices of the baseline route in ROUNDS rounds: a
 * baseline slice, then each scenario's slice (in reverse order every other round, as in A-B-B-A),
 * and a last baseline slice after the last round. Each scenario's ratio to the baseline
 * (`aroundRatio`) is the median over the rounds of its slice's rate against the mean of the two
 * baseline slices either side of it. This host's speed swung by 1.7× within minutes, in spells of
 * seconds to tens of seconds: a baseline only before and after a scenario met a slow spell in the
 * middle with neither side, while slices a few seconds apart meet it together, and a median leaves
 * out the rounds that straddle a change. Every scenario still gets S.duration in all, and the baseline
 * S.duration; the first slice of each warms up S.warmup, the later ones SLICE_WARMUP.
 */
async function runInterleaved(
  service: Service,
  fixture: Fixture,
  runTag: string,
  runners: SliceRunner[],
): Promise<ScenarioResult[]> {
  const warmup = (round: number): number => (round === 0 ? S.warmup : Math.min(S.warmup, SLICE_WARMUP));
  const baselineSlice = (round: number) =>
    runFor(service, 'baseline', fixture, `${runTag}-base${round}`, S.duration / (ROUNDS + 1), warmup(round));
  const baselines = [await baselineSlice(0)];
  const slices: ScenarioResult[][] = runners.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = runners.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) slices[i].push(await runners[i](S.duration / ROUNDS, warmup(round), `r${round}`));
    baselines.push(await baselineSlice(round + 1));
  }
  if (baselines.some((b) => b.non2xx || b.statusFalse || !b.checkAfter)) {
    fail(`${service.adapter}: a baseline slice between ${slices.map((s) => s[0].scenario).join(' / ')} failed`);
  }
  return slices.map((own) => {
    const { rounds, ratio } = interleavedRatio(
      own.map((slice) => slice.rps),
      baselines.map((b) => b.rps),
    );
    return { ...mergeSlices(own), baselineAround: mean(baselines.map((b) => b.rps)), aroundRatio: ratio, roundRatios: rounds };
  });
}

/** Slices of one scenario as one result: mean rate and CPU, p50 and p99 of all their answers, summed counts. */
export function mergeSlices(slices: ScenarioResult[]): ScenarioResult {
  const all = slices.flatMap((x) => x.latencies ?? []).sort((a, b) => a - b);
  const cpus = slices.map((x) => x.cpu);
  const cpu = cpus.every((c): c is CpuPerRequest => c !== null) ? meanCpu(cpus) : null;
  const sum = (pick: (x: ScenarioResult) => number) => slices.reduce((total, x) => total + pick(x), 0);
  return {
    ...slices[0],
    rps: sum((x) => x.rps) / slices.length,
    total: sum((x) => x.total),
    p50: all.length ? percentile(all, 0.5) : sum((x) => x.p50) / slices.length,
    p99: all.length ? percentile(all, 0.99) : Math.max(...slices.map((x) => x.p99)),
    latencies: undefined,
    non2xx: sum((x) => x.non2xx),
    statusFalse: sum((x) => x.statusFalse),
    errors: sum((x) => x.errors),
    checkAfter: slices.every((x) => x.checkAfter),
    checkAfterDetail: slices.find((x) => !x.checkAfter)?.checkAfterDetail,
    // A replayed nonce accepted in any slice is what the report must show.
    replayRefused: slices.some((x) => x.replayRefused === false) ? false : slices[0].replayRefused,
    failures: slices.flatMap((x) => x.failures),
    cpu,
  };
}

function meanCpu(all: CpuPerRequest[]): CpuPerRequest {
  const out = { ...all[0] };
  for (const k of Object.keys(out) as (keyof CpuPerRequest)[]) out[k] = mean(all.map((c) => c[k]));
  return out;
}

/** Database queries and Redis commands per login, from sequential logins on an idle service. */
export async function probeRoundTrips(service: Service, fixture: Fixture, runTag: string): Promise<RoundTripProbe> {
  const out: RoundTripProbe = {};
  for (const name of ALL_SCENARIOS.filter((n) => n !== 'baseline' && n !== 'baseline-envelope')) {
    if (!S.scenarios.includes(name)) continue;
    const route = routeOf(name, fixture);
    const nextRequest = requests(name, fixture, `probe-${runTag}`);
    const before = await service.roundTrips();
    for (let i = 0; i < S.probeLogins; i++) {
      const res = await sample(service.base, name, route, nextRequest());
      if (!res.ok) fail(`round-trip probe (${name}) got a failed login: ${JSON.stringify(res.body)}`);
    }
    const after = await service.roundTrips();
    out[name] = { pg: (after.pg - before.pg) / S.probeLogins, redis: (after.redis - before.redis) / S.probeLogins };
  }
  return out;
}

/**
 * argon2id hash() throughput in this process with the library's defaults (as the service hashes and
 * verifies passwords): S.argonConcurrency calls in flight (libuv's default pool has 4 threads) for
 * S.argonSeconds, with the service stopped. A user login verifies one hash, which costs the same.
 */
export async function argonRate(): Promise<ArgonRate> {
  const { hash } = await import('@node-rs/argon2');
  await hash('warm-up-password');
  const started = performance.now();
  const until = started + S.argonSeconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: S.argonConcurrency }, async (_, w) => {
      while (performance.now() < until) {
        await hash(`bench-password-${w}-${count}`);
        count++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { count, seconds, rate: count / seconds, msEach: (seconds * 1000 * S.argonConcurrency) / count };
}

/** How runScenarios measures beyond the plain sequence (npm run bench sets both; scale mode neither). */
export interface ScenarioOptions {
  /** A scenario with a target on this adapter is measured interleaved with the baseline (runInterleaved), against which the target is judged. */
  interleaveTargets?: boolean;
  /** Run before each scenario (or pair): on PostgreSQL, clears what the scenarios before it left to autovacuum. */
  settle?: () => Promise<void>;
}

/**
 * The selected scenarios (S.scenarios) on one service, in order, each logged as it ends: a signed
 * scenario with its unsigned twin as an A-B-B-A pair, a scenario with a reference (count against
 * bound) as a pair too.
 */
export async function runScenarios(
  service: Service,
  fixture: Fixture,
  runTag: string,
  log: (message: string) => void,
  { interleaveTargets = false, settle }: ScenarioOptions = {},
): Promise<ScenarioResult[]> {
  const all: ScenarioResult[] = [];
  const adapter = service.adapter;
  for (const name of S.scenarios) {
    const signed = SIGNED_TWIN[name];
    if (signed && S.scenarios.includes(signed)) continue; // measured with its signed twin
    const twin = UNSIGNED_TWIN[name];
    const reference = COMPARED_WITH[name];
    const unsigned = twin && S.scenarios.includes(twin) ? twin : undefined;
    const interleaved =
      interleaveTargets && S.scenarios.includes('baseline') && targetOn(SCENARIOS[name].target, adapter) !== undefined;
    await settle?.();
    let results: ScenarioResult[];
    if (interleaved) {
      const slice =
        (scenario: ScenarioName, aside?: (entering: boolean) => Promise<void>): SliceRunner =>
        async (seconds, warmup, part) => {
          await aside?.(true);
          try {
            return await runFor(service, scenario, fixture, `${runTag}-${scenario}-${part}`, seconds, warmup);
          } finally {
            await aside?.(false);
          }
        };
      const runners = unsigned
        ? [slice(name), slice(unsigned, (entering) => setResponseSigning(service, fixture, !entering))]
        : reference
          ? [slice(reference), slice(name)]
          : [slice(name)];
      results = await runInterleaved(service, fixture, `${runTag}-${name}`, runners);
    } else if (unsigned) {
      results = await runSigningPair(service, name, unsigned, fixture, runTag);
    } else if (reference) {
      results = await runPair(service, reference, name, fixture, `${runTag}-vs`);
    } else {
      results = [await runScenario(service, name, fixture, runTag)];
    }
    if (!unsigned && reference) {
      const [ref, own] = results;
      const cpu = own.cpu && ref.cpu ? `, service CPU per request ${fmtPct(own.cpu.service / ref.cpu.service)}` : '';
      log(
        `[${adapter}] ${SCENARIOS[name].short} against ${SCENARIOS[reference].short}, ${interleaved ? 'interleaved' : 'A-B-B-A'}: throughput ${fmtPct(own.rps / ref.rps)}${cpu}`,
      );
      results = [{ ...own, against: ref }];
    }
    for (const result of results) {
      all.push(result);
      const around = result.aroundRatio
        ? `; ${fmtPct(result.aroundRatio)} of the baseline interleaved with it (median of rounds ${result.roundRatios?.map(fmtPct).join(' / ')}; its slices ${fmtInt(result.baselineAround ?? 0)} req/s)`
        : '';
      log(
        `[${adapter}] ${SCENARIOS[result.scenario].title}: ${fmtInt(result.rps)} req/s, p50 ${fmtMs(result.p50)} ms, p99 ${fmtMs(result.p99)} ms${around}`,
      );
    }
  }
  return all;
}
