import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Exit, freePort, spawnService, startSignalledService } from '../../support/service-process';
import { acquireStores, AppStores, copyEmbeddedTemplate } from '../../support/stores';
import { ADMIN_PASSWORD } from '../../support/test-app';

/**
 * What a start says, as an operator reads it on the terminal: a port in use is one
 * line naming PORT, on either adapter and from a cluster's primary; Redis without AOF is said once.
 * Real service processes.
 */

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/** Something else listening on a port of 127.0.0.1 (where spawnService's services listen). */
async function occupyPort(): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { port, server };
}

/** The service on `port`, run to its exit (killed past `timeoutMs`): its exit and output. */
async function runOnPort(env: Record<string, string>, port: number, timeoutMs = 60_000): Promise<Exit & { output: string }> {
  const child = spawnService(env, port);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, output };
}

describe('what the start says (e2e, real service processes)', () => {
  let stores: AppStores;
  let env: Record<string, string>;

  beforeAll(async () => {
    stores = await acquireStores({ DATABASE_URL: '', REDIS_URL: '' });
    copyEmbeddedTemplate(stores.env.DATA_DIR);
    env = { ...stores.env, ADMIN_USERNAME: 'admin', ADMIN_PASSWORD, LOG_LEVEL: 'info', ACCESS_LOG: 'off', WORKERS: '1' };
  });

  afterAll(async () => {
    await stores?.leave();
  });

  it.each(['fastify', 'express'])(
    'ends a start on a port in use with one line naming PORT (%s), no stack',
    async (adapter) => {
      const busy = await occupyPort();
      try {
        const result = await runOnPort({ ...env, HTTP_ADAPTER: adapter }, busy.port);
        expect(result).toMatchObject({ code: 1, signal: null });
        const line = `Failed to start: port ${busy.port} on 127.0.0.1 is in use by another process: set PORT or stop it\n`;
        expect(result.output).toContain(line);
        expect(result.output.split(line)).toHaveLength(2); // once
        expect(result.output).not.toMatch(/^\s+at /m);
        expect(result.output).not.toContain('EADDRINUSE');
        expect(result.output).not.toContain('listening on');
      } finally {
        busy.server.close();
      }
    },
    120_000,
  );

  (shared ? it : it.skip)(
    'says it once from a cluster primary, before any worker starts',
    async () => {
      const clusterStores = await acquireStores({ ...process.env });
      const busy = await occupyPort();
      try {
        const result = await runOnPort(
          {
            ...clusterStores.env,
            APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? 'a'.repeat(64),
            ADMIN_PASSWORD,
            LOG_LEVEL: 'info',
            WORKERS: '2',
          },
          busy.port,
        );
        expect(result).toMatchObject({ code: 1, signal: null });
        expect(result.output).toContain(
          `Failed to start: port ${busy.port} on 127.0.0.1 is in use by another process: set PORT or stop it\n`,
        );
        expect(result.output).not.toContain('cluster starting');
        expect(result.output).not.toMatch(/^\s+at /m);
      } finally {
        busy.server.close();
        await clusterStores.leave();
      }
    },
    120_000,
  );

  const redisInstalled = spawnSync('sh', ['-c', 'command -v redis-server']).status === 0;

  (redisInstalled ? it : it.skip)(
    'names a Redis without AOF once at start',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ck-redis-no-aof-'));
      const port = await freePort();
      const redisServer: ChildProcess = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: 'ignore' },
      );
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
      probe.on('error', () => undefined);
      try {
        for (let tries = 0; ; tries++) {
          if (
            await probe.connect().then(
              () => true,
              () => false,
            )
          )
            break;
          if (tries > 100) throw new Error('redis-server did not answer');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const service = await startSignalledService({ ...env, REDIS_URL: `redis://127.0.0.1:${port}/0` });
        try {
          await service.waitForOutput('"msg":"API docs');
        } finally {
          await service.stop();
        }
        const mentions = service
          .output()
          .split('\n')
          .filter((line) => /Redis has no persistence/.test(line));
        expect(mentions).toEqual([expect.stringContaining('WARN  redis: Redis has no persistence')]);
      } finally {
        probe.disconnect();
        if (redisServer.exitCode === null && redisServer.signalCode === null) {
          redisServer.kill('SIGKILL');
          await once(redisServer, 'exit');
        }
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
