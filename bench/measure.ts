// Measuring: checked sample requests, autocannon runs, signed / unsigned pairs, round-trip
// probes and argon2 throughput.
import autocannon from 'autocannon';
import { cpuPerRequest, cpuSnapshot, hrMicros, type CpuPerRequest } from './cpu';
import { adminCall, api, prop, type ApiAnswer } from './http';
import { COMPARED_WITH, requests, routeOf, SCENARIOS, SIGNED_TWIN, STANDARD, succeeded, targetOn, UNSIGNED_TWIN, type BenchRequest } from './scenarios';
import type { Service } from './service-process';
import { ALL_SCENARIOS, fail, S, type ScenarioName } from './settings';
import { fmtInt, fmtMs, fmtPct } from './tables';
import type { ArgonRate, Fixture, RoundTripProbe, ScenarioResult } from './types';

/** The measured window of each adapter / scenario, for bench/profile-summary.ts --window. */
export const profileWindows: Record<string, { from: number; to: number }> = {};

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
) {
  return autocannon({
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
  const r = await cannon(service.base, name, route, nextRequest, S.duration, failures);
  const cpu = cpuPerRequest(cpuBefore, cpuSnapshot(service.pid, service.workers > 1), r.requests.total);
  if (S.cpuProfDir) profileWindows[`${service.adapter}/${name}`] = { from, to: hrMicros() };
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
    rps: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
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
  return [mergeHalves(a1, a2), mergeHalves(b1, b2)];
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

/** runScenario measured for `seconds` instead of S.duration. */
async function runFor(service: Service, name: ScenarioName, fixture: Fixture, runTag: string, seconds: number): Promise<ScenarioResult> {
  const saved = S.duration;
  S.duration = seconds;
  try {
    return await runScenario(service, name, fixture, runTag);
  } finally {
    S.duration = saved;
  }
}

/**
 * `measure` between two baseline halves of half the duration each, whose mean req/s becomes each
 * result's `baselineAround`. The run's own baseline is measured first, minutes before the last
 * scenario: when the machine's speed drifts in between (this 2-core machine's did by a quarter),
 * that ratio carries the drift. The halves around a scenario share its centre in time, so a drift
 * that is linear over the block weighs on both sides of the ratio alike.
 */
async function runBracketed(
  service: Service,
  fixture: Fixture,
  runTag: string,
  measure: () => Promise<ScenarioResult[]>,
): Promise<ScenarioResult[]> {
  const before = await runFor(service, 'baseline', fixture, `${runTag}-before`, S.duration / 2);
  const results = await measure();
  const after = await runFor(service, 'baseline', fixture, `${runTag}-after`, S.duration / 2);
  if (before.non2xx || after.non2xx || before.statusFalse || after.statusFalse || !before.checkAfter || !after.checkAfter) {
    fail(`${service.adapter}: a baseline half around ${results.map((r) => r.scenario).join(' / ')} failed`);
  }
  const around = (before.rps + after.rps) / 2;
  return results.map((r) => ({ ...r, baselineAround: around }));
}

function mergeHalves(x: ScenarioResult, y: ScenarioResult): ScenarioResult {
  const cpu = x.cpu && y.cpu ? meanCpu(x.cpu, y.cpu) : null;
  return {
    ...x,
    rps: (x.rps + y.rps) / 2,
    total: x.total + y.total,
    p50: (x.p50 + y.p50) / 2,
    p99: Math.max(x.p99, y.p99),
    non2xx: x.non2xx + y.non2xx,
    statusFalse: x.statusFalse + y.statusFalse,
    errors: x.errors + y.errors,
    checkAfter: x.checkAfter && y.checkAfter,
    failures: [...x.failures, ...y.failures],
    cpu,
  };
}

function meanCpu(x: CpuPerRequest, y: CpuPerRequest): CpuPerRequest {
  const out = { ...x };
  for (const k of Object.keys(x) as (keyof CpuPerRequest)[]) out[k] = (x[k] + y[k]) / 2;
  return out;
}

/** Database queries and Redis commands per login, from sequential logins on an idle service. */
export async function probeRoundTrips(service: Service, fixture: Fixture, runTag: string): Promise<RoundTripProbe> {
  const out: RoundTripProbe = {};
  for (const name of ALL_SCENARIOS.filter((n) => n !== 'baseline')) {
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
  /** A scenario with a target on this adapter also gets its own baseline around it (runBracketed), against which the target is judged. */
  bracketTargets?: boolean;
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
  { bracketTargets = false, settle }: ScenarioOptions = {},
): Promise<ScenarioResult[]> {
  const all: ScenarioResult[] = [];
  const adapter = service.adapter;
  for (const name of S.scenarios) {
    const signed = SIGNED_TWIN[name];
    if (signed && S.scenarios.includes(signed)) continue; // measured with its signed twin
    const twin = UNSIGNED_TWIN[name];
    const reference = COMPARED_WITH[name];
    const measure = async (): Promise<ScenarioResult[]> => {
      if (twin && S.scenarios.includes(twin)) return runSigningPair(service, name, twin, fixture, runTag);
      if (reference) {
        const [ref, own] = await runPair(service, reference, name, fixture, `${runTag}-vs`);
        const cpu = own.cpu && ref.cpu ? `, service CPU per request ${fmtPct(own.cpu.service / ref.cpu.service)}` : '';
        log(`[${adapter}] ${SCENARIOS[name].short} against ${SCENARIOS[reference].short}, A-B-B-A: throughput ${fmtPct(own.rps / ref.rps)}${cpu}`);
        return [own];
      }
      return [await runScenario(service, name, fixture, runTag)];
    };
    const bracketed = bracketTargets && S.scenarios.includes('baseline') && targetOn(SCENARIOS[name].target, adapter) !== undefined;
    await settle?.();
    const results = bracketed ? await runBracketed(service, fixture, `${runTag}-${name}`, measure) : await measure();
    for (const result of results) {
      all.push(result);
      const around = result.baselineAround ? `; ${fmtPct(result.rps / result.baselineAround)} of the baseline around it (${fmtInt(result.baselineAround)} req/s)` : '';
      log(`[${adapter}] ${SCENARIOS[result.scenario].title}: ${fmtInt(result.rps)} req/s, p50 ${fmtMs(result.p50)} ms, p99 ${fmtMs(result.p99)} ms${around}`);
    }
  }
  return all;
}
