import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the global setup builds the server: its own folder, so a build never pulls dist/ from under another running service. */
export const OUT_DIR = join(ROOT, '.build-console-e2e');
export const ADMIN_PASSWORD = 'console-e2e-admin-password';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url: string, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new Error(`the service stopped before it was ready: ${why}`);
    const ready = await fetch(`${url}/health/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the service at ${url} was not ready within 60 s`);
}

/** The request-rate limits (src/core/throttling/rate-limits.ts) a console suite would otherwise meet. */
const RAISED_RATE_LIMITS = [
  'RATE_LIMIT_SIGN_IN_PER_ADDRESS',
  'RATE_LIMIT_SIGN_IN_PER_ACCOUNT',
  'RATE_LIMIT_ADMIN_WRITE_PER_ADDRESS',
  'RATE_LIMIT_ADMIN_WRITE_PER_ACCOUNT',
  'RATE_LIMIT_PORTAL_PER_ADDRESS',
  'RATE_LIMIT_UNBIND_PER_ADDRESS',
  'RATE_LIMIT_UNBIND_PER_CARD',
  'RATE_LIMIT_REGISTER_PER_ADDRESS',
  'RATE_LIMIT_REGISTER_PER_PROGRAM',
  'RATE_LIMIT_ORDERS_PER_ADDRESS',
  'RATE_LIMIT_ORDERS_PER_ACCOUNT',
];

/**
 * Starts the service built by the global setup on a free port, with a data directory of its own
 * (embedded PostgreSQL). Each Playwright worker runs one: platform settings a test switches, and the
 * authors and projects it creates, never reach a test in another worker. `env` adds to or replaces
 * its settings (a suite that needs the service mailing, for instance); a function of the service's
 * own address gives settings that name it (PUBLIC_URL, for the storefront).
 */
export async function startService(
  settings: Record<string, string> | ((url: string) => Record<string, string>) = {},
): Promise<RunningService> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const env = typeof settings === 'function' ? settings(url) : settings;
  const service = spawn(process.execPath, [join(OUT_DIR, 'src', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      // E2E_LOG_LEVEL=info adds the access log (each request's route, status and duration) to the output.
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // One service serves a worker's every test, which sign in and write from one address far more
      // often than a person: the request-rate limits stay on (their headers answered), raised.
      ...Object.fromEntries(RAISED_RATE_LIMITS.map((name) => [name, '100000'])),
      CONSOLE_DIR: join(ROOT, 'console', 'dist'),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exit: string | undefined;
  service.once('exit', (code, signal) => (exit = `exit ${code ?? signal}`));
  try {
    await waitUntilReady(url, () => exit);
  } catch (error) {
    service.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async stop() {
      if (exit === undefined) {
        const stopped = new Promise((resolve) => service.once('exit', resolve));
        service.kill('SIGTERM');
        await stopped;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
