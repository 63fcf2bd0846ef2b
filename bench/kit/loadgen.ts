// One load-generator process of the kit (forked by driver.ts, IPC channel). Runs autocannon in
// process with its share of the connections and builds every request with the bench's own code
// (bench/scenarios.ts: the same Connect forms, V3 signatures and heartbeat bodies as `npm run
// bench`). Each process starts at its own offset in the pools, so that the requests in flight of
// different processes hold different cards, and tags its nonces with its index. Every answer body is
// checked; latencies of 2xx answers go into a histogram of 0.05 ms buckets that the driver merges.
import autocannon from 'autocannon';
import { prop } from '../http';
import { requests, routeOf, STANDARD } from '../scenarios';
import type { ScenarioName } from '../settings';
import type { Fixture } from '../types';

export const BUCKET_MS = 0.05;

export interface LoadRun {
  cmd: 'run';
  name: ScenarioName;
  url: string;
  connections: number;
  seconds: number;
  tag: string;
}

export interface LoadResult {
  total: number;
  ok2xx: number;
  non2xx: number;
  mismatches: number;
  errors: number;
  timeouts: number;
  duration: number;
  cpuMs: number;
  /** [bucket, count] pairs of the 2xx answers' latencies (bucket × BUCKET_MS = ms). */
  histogram: [number, number][];
  failures: string[];
}

let fixture: Fixture | null = null;
let index = 0;
let count = 1;

function poolLength(name: ScenarioName, f: Fixture): number {
  if (name === 'card-heartbeat') return f.cardSessions.length;
  if (name === 'new-device') return f.newDevice.length;
  return f.bound.length;
}

function verify(name: ScenarioName, failures: string[]): (body: string) => boolean {
  const ok = STANDARD.has(name)
    ? (body: string): boolean => {
        try {
          const parsed: unknown = JSON.parse(body);
          return prop(parsed, 'code') === 0 && prop(parsed, 'success') === true;
        } catch {
          return false;
        }
      }
    : (body: string): boolean => body.startsWith('{"status":true');
  return (body) => {
    if (ok(body)) return true;
    if (failures.length < 3) failures.push(body.slice(0, 300));
    return false;
  };
}

async function run(msg: LoadRun): Promise<LoadResult> {
  if (!fixture) throw new Error('not initialised');
  const f = fixture;
  const next = requests(msg.name, f, `${msg.tag}-p${index}`);
  const skip = Math.floor((poolLength(msg.name, f) * index) / count);
  for (let i = 0; i < skip; i++) next();
  const failures: string[] = [];
  const buckets = new Map<number, number>();
  const instance = autocannon({
    url: msg.url,
    connections: msg.connections,
    duration: msg.seconds,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: routeOf(msg.name, f),
        setupRequest: (req) => {
          const { headers, body } = next();
          return { ...req, headers: { ...req.headers, ...headers }, body };
        },
      },
    ],
    verifyBody: verify(msg.name, failures),
  });
  void instance.on('response', (_client, status, _bytes, ms) => {
    if (status < 200 || status >= 300) return;
    const b = Math.round(ms / BUCKET_MS);
    buckets.set(b, (buckets.get(b) ?? 0) + 1);
  });
  const cpu0 = process.cpuUsage();
  const r = await instance;
  const cpu = process.cpuUsage(cpu0);
  return {
    total: r.requests.total,
    ok2xx: [...buckets.values()].reduce((a, b) => a + b, 0),
    non2xx: r.non2xx,
    mismatches: r.mismatches,
    errors: r.errors,
    timeouts: r.timeouts,
    duration: r.duration,
    cpuMs: (cpu.user + cpu.system) / 1000,
    histogram: [...buckets.entries()],
    failures,
  };
}

if (require.main === module) {
  process.on('message', (msg: { cmd: string } & Record<string, unknown>) => {
    const reply = (m: unknown): void => void process.send?.(m);
    void (async () => {
      if (msg.cmd === 'init') {
        fixture = msg.fixture as Fixture;
        index = msg.index as number;
        count = msg.count as number;
        reply({ ok: 'init' });
      } else if (msg.cmd === 'run') {
        reply({ ok: 'run', result: await run(msg as unknown as LoadRun) });
      }
    })().catch((error: unknown) => reply({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
  });
  process.on('disconnect', () => process.exit(0));
}
