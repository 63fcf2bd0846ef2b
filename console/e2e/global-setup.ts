import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Its own output folder, so that a build here never pulls dist/ from under another running service. */
const OUT_DIR = join(ROOT, '.build-console-e2e');
export const ADMIN_PASSWORD = 'console-e2e-admin-password';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
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
    const ready = await fetch(`${url}/health/ready`).then((res) => res.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the service at ${url} was not ready within 60 s`);
}

/**
 * Builds the console and the server from the current tree, then starts the service on a free port
 * with a data directory of its own (embedded PostgreSQL). The tests read where it is from the
 * environment; the function returned stops it and removes its data.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  run(process.execPath, [join(ROOT, 'console', 'scripts', 'build-if-changed.mjs')]);
  run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', OUT_DIR]);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
  const url = `http://127.0.0.1:${port}`;
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
      CONSOLE_DIR: join(ROOT, 'console', 'dist'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exit: string | undefined;
  service.once('exit', (code, signal) => (exit = `exit ${code ?? signal}`));
  await waitUntilReady(url, () => exit);
  process.env.CONSOLE_E2E_URL = url;
  process.env.CONSOLE_E2E_ADMIN_PASSWORD = ADMIN_PASSWORD;

  return async () => {
    if (exit === undefined) {
      const stopped = new Promise((resolve) => service.once('exit', resolve));
      service.kill('SIGTERM');
      await stopped;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
