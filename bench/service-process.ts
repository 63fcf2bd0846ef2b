// The service as a child process: the built dist/src/main.js (a private copy of it), with the
// round-trip counter preloaded and an IPC channel to read its counts.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchError, fail, PRELOAD, ROOT, S, type Adapter } from './settings';
import type { BenchContext, RoundTrips } from './types';

export interface Service {
  adapter: Adapter;
  /** The service's process: with workers, the cluster primary (the workers are its children). */
  pid: number;
  /** Worker processes (WORKERS); 1 = one process, no primary. */
  workers: number;
  base: string;
  bootSeconds: number;
  /** The last 200 lines the service wrote. */
  output: string[];
  /** Database queries and Redis commands the service has sent so far (with workers: worker 1's only, bench/count-round-trips.cjs). */
  roundTrips(): Promise<RoundTrips>;
  stop(): Promise<void>;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const children = new Set<ChildProcess>();
/** The run in progress, so that an interrupted run still removes its directories. */
let activeCtx: BenchContext | null = null;

export function setActiveRun(ctx: BenchContext | null): void {
  activeCtx = ctx;
}

export function killChildren(): void {
  for (const child of children) child.kill('SIGKILL');
}

process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killChildren();
    for (const dir of [activeCtx?.dataDir, activeCtx?.buildCopy]) if (dir) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

/** Workers serving, from the clustered service's own metrics (cluster_workers{state="serving"}). */
async function servingWorkers(base: string): Promise<number> {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(/^cluster_workers\{state="serving"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function roundTripsOf(message: unknown): RoundTrips | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const counts = (message as { bench_round_trips?: RoundTrips }).bench_round_trips;
  return counts ?? undefined;
}

export async function startService(adapter: Adapter, env: Record<string, string>, main: string, workers = 1): Promise<Service> {
  const port = await freePort();
  // As `npm start` runs the service (package.json; docs/operations.md, "Memory").
  const args: string[] = ['--heap-growing-percent=100'];
  // Not with workers: they inherit the flags and would all write the one profile name.
  if (S.cpuProfDir && workers === 1)
    args.push('--cpu-prof', `--cpu-prof-dir=${S.cpuProfDir}`, `--cpu-prof-name=${adapter}-${Date.now()}.cpuprofile`);
  args.push('-r', PRELOAD, main);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      // As `npm start` runs the service (package.json): glibc's malloc kept up to 8 arenas per core
      // of freed memory, about 40 MB of resident memory after the program-user logins (argon2).
      MALLOC_ARENA_MAX: '2',
      ...process.env,
      ...env,
      WORKERS: String(workers),
      HTTP_ADAPTER: adapter,
      PORT: String(port),
      HOST: '127.0.0.1',
      BENCH_BASELINE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const messageWaiters = new Set<(message: unknown) => void>();
  child.on('message', (message: unknown) => {
    for (const waiter of messageWaiters) waiter(message);
  });
  children.add(child);
  const output: string[] = [];
  const onData = (chunk: Buffer): void => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 200) output.shift();
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const state: { exited: Exit | null } = { exited: null };
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve((state.exited = { code, signal }))));
  void exit.then(() => children.delete(child));

  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (state.exited)
      fail(`the service (${adapter}) exited during start (${JSON.stringify(state.exited)}):\n${output.slice(-40).join('\n')}`);
    if (Date.now() - started > 90_000) {
      child.kill('SIGKILL');
      fail(`the service (${adapter}) was not ready after 90 s:\n${output.slice(-40).join('\n')}`);
    }
    try {
      const res = await fetch(`${base}/health/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  // Ready answers as soon as one worker listens: wait for them all.
  while (workers > 1 && (await servingWorkers(base)) < workers) {
    if (state.exited) fail(`the service (${adapter}, ${workers} workers) exited during start:\n${output.slice(-40).join('\n')}`);
    if (Date.now() - started > 90_000) fail(`the service (${adapter}) had not ${workers} workers serving after 90 s`);
    await sleep(200);
  }
  const bootSeconds = (Date.now() - started) / 1000;

  return {
    adapter,
    pid: child.pid ?? -1,
    workers,
    base,
    bootSeconds,
    output,
    async roundTrips() {
      return new Promise<RoundTrips>((resolve, reject) => {
        const timer = setTimeout(() => {
          messageWaiters.delete(waiter);
          reject(
            new BenchError('the service did not answer with its round-trip counts (is bench/count-round-trips.cjs preloaded?)'),
          );
        }, 5_000);
        const waiter = (message: unknown): void => {
          const counts = roundTripsOf(message);
          if (!counts) return;
          clearTimeout(timer);
          messageWaiters.delete(waiter);
          resolve(counts);
        };
        messageWaiters.add(waiter);
        child.send('bench:round-trips');
      });
    },
    async stop() {
      if (!state.exited) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
