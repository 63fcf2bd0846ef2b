import {
  callService as call,
  childPids,
  isRunning,
  runServiceToExit,
  SignalledService,
  signInService as signIn,
  startSignalledService,
} from '../../support/service-process';
import { acquireStores, AppStores, copyEmbeddedTemplate } from '../../support/stores';
import { ADMIN_PASSWORD } from '../../support/test-app';
import { MetricSample as Sample, parseMetrics } from '../../support/metrics';

/**
 * Every core: with PostgreSQL and Redis the service runs one worker process per core
 * (WORKERS, src/bootstrap/cluster-primary.ts); the embedded default stays one process. Everything
 * here goes through HTTP and signals to a real service process, as an operator would see it.
 */

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const KEY = process.env.APP_ENCRYPTION_KEY ?? 'a'.repeat(64);

async function metrics(service: SignalledService): Promise<Sample[]> {
  const res = await fetch(`${service.url}/metrics`);
  expect(res.status).toBe(200);
  return parseMetrics(await res.text());
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((total, s) => total + s.value, 0);

/** Requests served so far by each serving worker, by pid (the primary's cluster_worker_http_requests_total). */
const servedByPid = (samples: Sample[]) =>
  new Map(samples.filter((s) => s.name === 'cluster_worker_http_requests_total').map((s) => [Number(s.labels.pid), s.value]));

interface ConnectAnswer {
  http: number;
  body: { status: boolean; code?: number; request_id?: string };
}

function connectLogin(service: SignalledService, programId: string, form: Record<string, string>): Promise<ConnectAnswer> {
  return fetch(`${service.url}/connect/${programId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  }).then(async (res) => ({ http: res.status, body: (await res.json()) as ConnectAnswer['body'] }));
}

describe('WORKERS: how many processes serve (e2e, a real service process)', () => {
  it('refuses WORKERS=2 without PostgreSQL and Redis at start, naming WORKERS (exit 2)', async () => {
    const result = await runServiceToExit({
      WORKERS: '2',
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: '/nonexistent/ck-cluster-refused',
    });
    expect(result).toMatchObject({ code: 2, signal: null });
    expect(result.output).toMatch(/WORKERS: 2 processes need DATABASE_URL and REDIS_URL/);
  });

  (shared ? it.skip : it)(
    'runs the embedded default as one process, with no cluster primary',
    async () => {
      const stores = await acquireStores({ DATABASE_URL: '', REDIS_URL: '' });
      copyEmbeddedTemplate(stores.env.DATA_DIR);
      let service: SignalledService | undefined;
      try {
        service = await startSignalledService({ ...stores.env, ADMIN_PASSWORD, LOG_LEVEL: 'info', ACCESS_LOG: 'off' });
        await service.waitForOutput('"msg":"API docs');
        expect(childPids(service.pid)).toEqual([]);
        expect(service.output()).not.toContain('cluster starting');
        expect(service.output()).not.toContain('"msg":"workers:');
        const samples = await metrics(service);
        expect(samples.some((s) => s.name.startsWith('cluster_'))).toBe(false);
        expect(sum(samples, 'http_requests_total')).toBeGreaterThan(0);
      } finally {
        await service?.stop();
        await stores.leave();
      }
    },
    60_000,
  );
});

(shared ? describe : describe.skip)('WORKERS=2 on PostgreSQL + Redis: one service, two worker processes (e2e)', () => {
  let stores: AppStores;
  let service: SignalledService;
  let programId: string;
  let projectId: string;
  let authorToken: string;

  beforeAll(async () => {
    stores = await acquireStores({ ...process.env });
    service = await startSignalledService({
      ...stores.env,
      WORKERS: '2',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      APP_ENCRYPTION_KEY: KEY,
      LOG_LEVEL: 'info',
      ACCESS_LOG: 'off',
    });
    // The one banner comes once both workers listen.
    await service.waitForOutput('"msg":"API docs');
    await setUp().catch((error: unknown) => {
      // A set-up call refused (a 401 right after sign-in was seen once in CI): the workers' log says why.
      throw new Error(`${String(error)}\n--- service output ---\n${service.output().slice(-4000)}`);
    });
  }, 60_000);

  async function setUp(): Promise<void> {
    const admin = await signIn(service, 'admin', ADMIN_PASSWORD);
    const author = { username: `cluster${Date.now().toString(36)}`, password: 'author-password-cluster' };
    await call(service, 'POST', '/admin/v1/authors', author, admin, 201);
    authorToken = await signIn(service, author.username, author.password);
    const project = await call<{ id: string; program_id: string }>(
      service,
      'POST',
      '/admin/v1/projects',
      { name: 'Cluster' },
      authorToken,
      201,
    );
    await call(
      service,
      'PUT',
      `/admin/v1/projects/${project.id}/entitlements`,
      { basic_package: true, plan_level: 1, licence_verify: false },
      admin,
      200,
    );
    programId = project.program_id;
    projectId = project.id;
  }
  afterAll(async () => {
    await service?.stop();
    await stores?.leave();
  });

  const newCards = async (count: number, deviceLimit = 1) =>
    (
      await call<{ items: Array<{ code: string }> }>(
        service,
        'POST',
        `/admin/v1/projects/${projectId}/cards`,
        { count, duration_seconds: 86_400, device_limit: deviceLimit },
        authorToken,
        201,
      )
    ).items.map((card) => card.code);

  it('starts one primary with two workers and writes one banner saying so', async () => {
    const workers = childPids(service.pid);
    expect(workers).toHaveLength(2);
    const output = service.output();
    expect(output.match(/"msg":"listening on /g)).toHaveLength(1);
    expect(output).toContain('"msg":"workers: 2 processes sharing the port');
    expect(output.match(/"msg":"worker started"/g)).toHaveLength(2);
    const samples = await metrics(service);
    expect(sum(samples, 'cluster_workers', { state: 'serving' })).toBe(2);
    expect([...servedByPid(samples).keys()].sort()).toEqual(workers.sort());
  });

  it('serves from both workers and sums card_logins_total over them in one /metrics', async () => {
    const codes = await newCards(24);
    const before = await metrics(service);
    const results = await Promise.all(
      codes.map((code, i) => connectLogin(service, programId, { user_key: code, serial: `sum-${i}` })),
    );
    expect(results.every((r) => r.http === 200 && r.body.status === true)).toBe(true);
    const after = await metrics(service);
    expect(sum(after, 'card_logins_total', { family: 'connect' }) - sum(before, 'card_logins_total', { family: 'connect' })).toBe(
      24,
    );
    const [was, now] = [servedByPid(before), servedByPid(after)];
    expect(now.size).toBe(2);
    for (const [pid, served] of now) expect(served - (was.get(pid) ?? 0)).toBeGreaterThan(0);
    // The aggregated gauges are one figure, not one per worker or a sum of copies.
    expect(after.filter((s) => s.name === 'database_up')).toEqual([
      { name: 'database_up', labels: { database: 'postgresql' }, value: 1 },
    ]);
  });

  it('binds exactly 1 of 20 concurrent new devices on a 1-device card, whichever worker answers', async () => {
    const [code] = await newCards(1);
    const before = servedByPid(await metrics(service));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => connectLogin(service, programId, { user_key: code, serial: `race-${i}` })),
    );
    expect(results.filter((r) => r.http === 200 && r.body.status === true)).toHaveLength(1);
    expect(results.filter((r) => r.http === 200 && r.body.code === -20004)).toHaveLength(19);
    const after = servedByPid(await metrics(service));
    for (const [pid, served] of after) expect(served - (before.get(pid) ?? 0)).toBeGreaterThan(0);
  });

  it('admits a Connect nonce once, whichever worker gets it again', async () => {
    const [code] = await newCards(1);
    const nonce = `cluster-nonce-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => connectLogin(service, programId, { user_key: code, serial: 'nonce-device', nonce })),
    );
    expect(results.filter((r) => r.http === 200 && r.body.status === true)).toHaveLength(1);
    expect(results.filter((r) => r.http === 409 && r.body.code === -10103)).toHaveLength(19);
  });

  it('restarts the workers one at a time on SIGHUP without losing a login, then stops everything on SIGTERM', async () => {
    const codes = await newCards(8);
    for (const [i, code] of codes.entries())
      expect((await connectLogin(service, programId, { user_key: code, serial: `roll-${i}` })).body.status).toBe(true);
    const oldWorkers = childPids(service.pid).sort();

    let running = true;
    let answered = 0;
    const wrong: string[] = [];
    const loops = codes.map(async (code, i) => {
      while (running) {
        const outcome = await connectLogin(service, programId, { user_key: code, serial: `roll-${i}` }).catch(
          (error: unknown) => ({
            http: 0,
            body: { status: false, error: String((error as { cause?: unknown }).cause ?? error) },
          }),
        );
        if (outcome.http === 200 && outcome.body.status === true) answered += 1;
        else if (wrong.length < 5) wrong.push(JSON.stringify(outcome));
        else wrong.push('…');
      }
    });
    try {
      while (answered < 50) await new Promise((resolve) => setTimeout(resolve, 20));
      service.signal('SIGHUP');
      await service.waitForOutput('"msg":"rolling restart done"', 45_000);
      const during = answered;
      while (answered < during + 50) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      running = false;
      await Promise.all(loops);
    }
    expect(wrong).toEqual([]);
    expect(answered).toBeGreaterThan(100);

    const newWorkers = childPids(service.pid).sort();
    expect(newWorkers).toHaveLength(2);
    for (const pid of newWorkers) expect(oldWorkers).not.toContain(pid);
    expect(service.output().match(/"msg":"worker retiring"/g)).toHaveLength(2);
    const samples = await metrics(service);
    expect([...servedByPid(samples).keys()].sort()).toEqual(newWorkers);
    expect(sum(samples, 'cluster_worker_restarts_total', { reason: 'rolling' })).toBe(2);

    const exit = await service.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    for (const pid of [...oldWorkers, ...newWorkers]) expect(isRunning(pid)).toBe(false);
    expect(service.output()).toContain('"msg":"stopped","workers":0');
  }, 60_000);
});
