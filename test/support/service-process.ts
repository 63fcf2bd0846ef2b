import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** How a process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The service as a process of its own, run from the sources (test/support/swc-register.cjs), for
 * tests that signal it (SIGKILL, SIGHUP, SIGTERM) or watch its workers: its pid, its exit, its output
 * as it comes. `env` holds its stores (test/support/stores.ts `acquireStores`).
 */
export interface SignalledService {
  url: string;
  pid: number;
  signal(signal: NodeJS.Signals): void;
  exited: Promise<Exit>;
  /** Sends SIGTERM (once) and waits for the exit. */
  stop(): Promise<Exit>;
  output(): string;
  /** Resolves once the output has a line containing `text` (rejects past `timeoutMs` or at exit). */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The test pass's adapter (HTTP_ADAPTER), which every service process runs on unless its env names one; unset, the service's default. */
const PASS_ADAPTER: Record<string, string> = process.env.HTTP_ADAPTER ? { HTTP_ADAPTER: process.env.HTTP_ADAPTER } : {};
/** The pass's prepared-statement setting (off in the PgBouncer pass), which every service process takes unless its env names one. */
const PASS_STATEMENTS: Record<string, string> = process.env.DATABASE_PREPARED_STATEMENTS
  ? { DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS }
  : {};

/** The service from its sources on `port` (127.0.0.1), its output piped: the child process itself, for tests that watch it their own way. */
export function spawnService(env: Record<string, string>, port: number) {
  return spawn(process.execPath, ['-r', join(ROOT, 'test/support/swc-register.cjs'), join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LOG_LEVEL: 'warn',
      ...PASS_ADAPTER,
      ...PASS_STATEMENTS,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the service to its end (a start refused by its configuration): its exit and output. */
export async function runServiceToExit(env: Record<string, string>, timeoutMs = 30_000): Promise<Exit & { output: string }> {
  const child = spawnService(env, await freePort());
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, output };
}

/** Starts the service and waits until /health/ready answers 200. */
export async function startSignalledService(env: Record<string, string>): Promise<SignalledService> {
  const port = await freePort();
  const child = spawnService(env, port);
  let output = '';
  const listeners = new Set<() => void>();
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }) as Exit);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited while starting:\n${output}`);
    // Only our process's socket counts: a port taken by another run's service between freePort and
    // listen would otherwise answer for it (and this one exits with EADDRINUSE unseen).
    if (
      listensOn(child.pid!, port) &&
      (await fetch(`${url}/health/ready`).then(
        (res) => res.ok,
        () => false,
      ))
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service was not ready within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let stopping: Promise<Exit> | undefined;
  return {
    url,
    pid: child.pid!,
    signal: (signal) => child.kill(signal),
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null && !stopping) child.kill('SIGTERM');
      return (stopping ??= exited);
    },
    output: () => output,
    waitForOutput: (text, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!output.includes(text)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no "${text}" in the service's output within ${timeoutMs} ms:\n${output.slice(-4000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(() => {
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`the service exited before "${text}":\n${output.slice(-4000)}`));
        });
        check();
      }),
  };
}

/** The pids of the processes whose parent is `pid` (Linux /proc). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** Whether a process with this pid exists (and is not a zombie). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export interface ServiceProcess {
  url: string;
  /** Ends the process with a signal and waits for its exit; SIGKILL gives it no chance to clean up. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** What the process wrote, for a failure's message. */
  output(): string;
}

/** The service as a process that a test ends with a signal of its choice. */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startSignalledService(env);
  let ended = false;
  void service.exited.then(() => (ended = true));
  return {
    url: service.url,
    output: service.output,
    kill: async (signal) => {
      if (!ended) service.signal(signal);
      await service.exited;
    },
  };
}

/** A JSON call to the service; fails the test unless it answers `expected`. */
export async function callService<T>(
  service: { url: string },
  method: string,
  path: string,
  body: unknown,
  token: string | null,
  expected: number,
): Promise<T> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as T;
  if (res.status !== expected) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** An admin sign-in: the bearer token. */
export const signInService = async (service: { url: string }, username: string, password: string) =>
  (await callService<{ token: string }>(service, 'POST', '/admin/v1/auth/login', { username, password }, null, 200)).token;

/** Whether `pid` or one of its children holds the listening TCP socket of 127.0.0.1:`port` (Linux /proc). */
export function listensOn(pid: number, port: number): boolean {
  let table: string;
  try {
    table = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return true; // no /proc: trust the answer
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set(
    table
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A')
      .map((f) => f[9]),
  );
  if (inodes.size === 0) return false;
  return [pid, ...childPids(pid)].some((owner) => {
    try {
      return readdirSync(`/proc/${owner}/fd`).some((fd) => {
        try {
          const target = readlinkSync(`/proc/${owner}/fd/${fd}`);
          return inodes.has(target.slice('socket:['.length, -1)) && target.startsWith('socket:[');
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}
