// The envelope interceptor's CPU per request in one process, without the network: the bench's bare
// baseline route against the same route through ConnectEnvelopeInterceptor, by Fastify inject(),
// 64 requests in flight, in A-B-B-A rounds. The bench's HTTP line (run.ts) carries the load
// generator's and the kernel's noise as well; this one is steady enough to compare two builds of
// Nest's runner (docs/performance.md, "Envelope interceptors").
//
//   npm run build && npm run build:bench && node dist/bench/interceptor-inprocess.js
//
// INPROCESS_ROUNDS (40) and INPROCESS_REQUESTS (1,000 per slice) set the size; the embedded database
// goes to a temporary directory. Prints the medians and the trimmed mean of the rounds' differences.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median, trimmedMean } from './stats';

interface InjectTarget {
  inject(options: { method: string; url: string; payload: string; headers: Record<string, string> }): Promise<{
    statusCode: number;
    body: string;
  }>;
  ready(): Promise<unknown>;
}
interface BuiltApp {
  init(): Promise<unknown>;
  close(): Promise<unknown>;
  getHttpAdapter(): { getInstance(): InjectTarget };
}

const ROUNDS = Number(process.env.INPROCESS_ROUNDS ?? 40);
const REQUESTS = Number(process.env.INPROCESS_REQUESTS ?? 1000);
const IN_FLIGHT = 64;
const BARE = '/bench/baseline';
const ENVELOPE = '/bench/baseline-envelope';

/** CPU microseconds of this process per request, for `count` requests to `url`. */
async function slice(target: InjectTarget, url: string, count: number): Promise<number> {
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const started = process.cpuUsage();
  let sent = 0;
  const lane = async (): Promise<void> => {
    while (sent < count) {
      sent += 1;
      const answer = await target.inject({ method: 'POST', url, payload: 'a=1', headers });
      if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}: ${answer.body}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardkey-inprocess-'));
  Object.assign(process.env, { BENCH_BASELINE: '1', DATA_DIR: dataDir, LOG_LEVEL: 'error', REQUEST_LOG: 'off' });
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  const dist = path.join(__dirname, '..', 'src');
  // The built service, loaded once the environment above is set.
  await import('reflect-metadata');
  const { loadConfig } = (await import(path.join(dist, 'config', 'app-config.js'))) as { loadConfig(): unknown };
  const { createApp } = (await import(path.join(dist, 'bootstrap', 'create-app.js'))) as {
    createApp(config: unknown): Promise<BuiltApp>;
  };
  const app = await createApp(loadConfig());
  try {
    await app.init();
    const target = app.getHttpAdapter().getInstance();
    await target.ready();
    for (let warm = 0; warm < 3; warm++) {
      await slice(target, BARE, REQUESTS);
      await slice(target, ENVELOPE, REQUESTS);
    }
    const bare: number[] = [];
    const envelope: number[] = [];
    const differences: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a1 = await slice(target, BARE, REQUESTS);
      const b1 = await slice(target, ENVELOPE, REQUESTS);
      const b2 = await slice(target, ENVELOPE, REQUESTS);
      const a2 = await slice(target, BARE, REQUESTS);
      bare.push((a1 + a2) / 2);
      envelope.push((b1 + b2) / 2);
      differences.push((b1 + b2 - a1 - a2) / 2);
    }
    process.stdout.write(
      `In one process (Fastify inject(), ${IN_FLIGHT} in flight, ${ROUNDS} A-B-B-A rounds of ${REQUESTS} requests): ` +
        `bare route ${median(bare).toFixed(1)} µs, through ConnectEnvelopeInterceptor ${median(envelope).toFixed(1)} µs ` +
        `of CPU per request (medians); the interceptor's cost ${trimmedMean(differences).toFixed(1)} µs ` +
        `(trimmed mean of the rounds' differences; median ${median(differences).toFixed(1)}).\n`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
