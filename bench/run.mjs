// `npm run bench`: Connect login throughput against a bare route on the same adapter.
//
// Starts the built service (a private copy of dist/, src/main.js) as a child process, first with
// HTTP_ADAPTER=express, then with fastify, on one database seeded once with 100,000 cards:
// PostgreSQL (+ Redis) when DATABASE_URL (REDIS_URL) are set, else the embedded default in a fresh
// temporary DATA_DIR. Each scenario gets a checked sample request, a short warm-up, ~10 s of
// autocannon with 64 connections, and a checked request after. Prints the figures, CPU time per
// request by process and round trips per login, and writes them into docs/performance.md (between
// the bench:begin/end markers; the rest of that file is written by hand).
//
// Besides Connect, the standard client routes on the same seeded project: V3 login (HMAC-signed
// form) of the bound pool, card and user heartbeats (Bearer session tokens opened by SDK logins
// before measuring) and program-user login (argon2 verify per request; the bench also measures
// argon2 hash() throughput in its own process, for comparison).
//
// Knobs for quick looks (a run with any of them changed does not touch docs/performance.md unless
// BENCH_WRITE_DOC=1): BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS (numbers), BENCH_ADAPTERS
// (e.g. `fastify`), BENCH_SCENARIOS (e.g. `baseline,bound`). BENCH_CPU_PROF=<dir> starts the
// service with --cpu-prof into <dir> (summarise with `node bench/profile-summary.mjs <file>`).
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = path.join(ROOT, 'dist/src/main.js');
const PRELOAD = path.join(ROOT, 'bench/count-round-trips.cjs');
const DOC = path.join(ROOT, 'docs/performance.md');
const FORM = 'application/x-www-form-urlencoded';

class BenchError extends Error {}
const fail = (message) => {
  throw new BenchError(message);
};

/** A bad knob stops the run before anything starts. */
function badSetting(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function positive(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) badSetting(`${name} must be a positive number, got "${raw}"`);
  return value;
}

const DEFAULT_ADAPTERS = ['express', 'fastify'];
const ALL_SCENARIOS = ['baseline', 'bound', 'bound-unsigned', 'new-device', 'nonce', 'v3', 'v3-unsigned', 'card-heartbeat', 'user-login', 'user-heartbeat'];
const JSON_TYPE = 'application/json';
const S = {
  cards: 100_000,
  batchSize: 10_000,
  /**
   * Cards logged in once before measuring, then hammered with their bound device. Requests take
   * them round-robin, so the 64 in flight always hold 64 different cards (no row-lock queue).
   */
  boundPool: 512,
  /** Cards with device_limit 1000 that get a new device on every request (about 15 each per run). */
  newDevicePool: 256,
  newDeviceLimit: 1_000,
  /** SDK card sessions opened before measuring (on the first cards of the bound pool, with their device). */
  cardSessions: 256,
  /** Program users registered before measuring (user_machine_policy 'free'), each logged in this often for the session pool. */
  users: 64,
  sessionsPerUser: 2,
  /** argon2 hash() in the bench process: concurrent calls and seconds. */
  argonConcurrency: 4,
  argonSeconds: 5,
  connections: positive('BENCH_CONNECTIONS', 64),
  duration: positive('BENCH_DURATION', 10),
  warmup: positive('BENCH_WARMUP', 2),
  adapters: list('BENCH_ADAPTERS', DEFAULT_ADAPTERS),
  scenarios: list('BENCH_SCENARIOS', ALL_SCENARIOS),
  cpuProfDir: process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null,
  /** Sequential logins per scenario when counting database / Redis round trips. */
  probeLogins: 20,
};
const IS_DEFAULT_RUN =
  S.connections === 64 && S.duration === 10 && S.warmup === 2 && !S.cpuProfDir &&
  S.adapters.join() === DEFAULT_ADAPTERS.join() && S.scenarios.join() === ALL_SCENARIOS.join();
const WRITE_DOC = process.env.BENCH_WRITE_DOC ? process.env.BENCH_WRITE_DOC === '1' : IS_DEFAULT_RUN;

function list(name, allowed) {
  const raw = process.env[name];
  if (!raw) return allowed;
  const values = raw.split(',').map((v) => v.trim()).filter(Boolean);
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length || !values.length) badSetting(`${name}: unknown value(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`);
  return allowed.filter((v) => values.includes(v));
}

const SCENARIOS = {
  baseline: { title: 'baseline: bare route, constant answer', short: 'baseline' },
  bound: { title: 'Connect login, bound device', short: 'bound-device login', target: { ratio: 0.4, p99: 20 } },
  // The same requests with the project's response_signing off: what Ed25519-signed answers cost (decisions §15).
  'bound-unsigned': { title: 'Connect login, bound device, answers unsigned', short: 'bound-device login, unsigned' },
  'new-device': { title: 'Connect login, new device each time', short: 'new-device login', target: { ratio: 0.25 } },
  nonce: { title: 'Connect login, bound device + unique nonce', short: 'login with nonce' },
  v3: { title: 'V3 login (HMAC-signed form), bound device', short: 'V3 login', target: { ratio: 0.35 } },
  'v3-unsigned': { title: 'V3 login, bound device, answers unsigned', short: 'V3 login, unsigned' },
  'card-heartbeat': { title: 'SDK card heartbeat (Bearer session)', short: 'card heartbeat', target: { ratio: 0.6 } },
  'user-login': { title: 'SDK program-user login (argon2 verify)', short: 'user login' },
  'user-heartbeat': { title: 'SDK user heartbeat (Bearer session)', short: 'user heartbeat', target: { ratio: 0.6 } },
};
/** Scenarios on the standard routes (JSON answers with code 0 and success true). */
const STANDARD = new Set(['v3', 'v3-unsigned', 'card-heartbeat', 'user-login', 'user-heartbeat']);
/** Scenarios run with the project's response_signing switched off. */
const UNSIGNED = new Set(['bound-unsigned', 'v3-unsigned']);
const PATHS = {
  v3: '/api/legacy/v3/cards/login',
  'v3-unsigned': '/api/legacy/v3/cards/login',
  sdkCardLogin: '/api/v1/cards/login',
  'card-heartbeat': '/api/v1/cards/heartbeat',
  userRegister: '/api/v1/users/register',
  'user-login': '/api/v1/users/login',
  'user-heartbeat': '/api/v1/users/heartbeat',
};

const targetText = (t) => (t ? `≥ ${t.ratio * 100} %${t.p99 ? `, p99 ≤ ${t.p99} ms` : ''}` : '');

// ---------------------------------------------------------------------------------------------
// The service as a child process

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const children = new Set();
/** The run in progress, so that an interrupted run still removes its directories. */
let activeCtx = null;
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    for (const dir of [activeCtx?.dataDir, activeCtx?.buildCopy]) if (dir) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

async function startService(adapter, env, main) {
  const port = await freePort();
  const args = [];
  if (S.cpuProfDir) args.push('--cpu-prof', `--cpu-prof-dir=${S.cpuProfDir}`, `--cpu-prof-name=${adapter}-${Date.now()}.cpuprofile`);
  args.push('-r', PRELOAD, main);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, HTTP_ADAPTER: adapter, PORT: String(port), HOST: '127.0.0.1', BENCH_BASELINE: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const messageWaiters = new Set();
  child.on('message', (message) => {
    for (const waiter of messageWaiters) waiter(message);
  });
  children.add(child);
  const output = [];
  const onData = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 200) output.shift();
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = null;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  exit.then(() => children.delete(child));

  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (exited) fail(`the service (${adapter}) exited during start (${JSON.stringify(exited)}):\n${output.slice(-40).join('\n')}`);
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
  const bootSeconds = (Date.now() - started) / 1000;

  return {
    adapter,
    pid: child.pid,
    base,
    bootSeconds,
    output,
    /** Database queries and Redis commands the service has sent so far. */
    async roundTrips() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          messageWaiters.delete(waiter);
          reject(new BenchError('the service did not answer with its round-trip counts (is bench/count-round-trips.cjs preloaded?)'));
        }, 5_000);
        const waiter = (message) => {
          if (!message?.bench_round_trips) return;
          clearTimeout(timer);
          messageWaiters.delete(waiter);
          resolve(message.bench_round_trips);
        };
        messageWaiters.add(waiter);
        child.send('bench:round-trips');
      });
    },
    async stop() {
      if (!exited) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

async function api(base, method, route, { token, json, form, body: raw, headers: extra } = {}) {
  const headers = { ...extra };
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    headers['content-type'] = FORM;
    body = form;
  } else if (raw !== undefined) {
    body = raw;
  }
  const res = await fetch(base + route, { method, headers, body });
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

async function adminCall(base, method, route, options, expected) {
  const res = await api(base, method, route, options);
  if (res.status !== expected) {
    fail(`${method} ${route} answered HTTP ${res.status} (expected ${expected}): ${JSON.stringify(res.body).slice(0, 400)}`);
  }
  return res.body;
}

async function inParallel(items, concurrency, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  });
  await Promise.all(workers);
}

// ---------------------------------------------------------------------------------------------
// Seeding

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const cardCode = (prefix) => prefix + Array.from({ length: 20 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/**
 * The bench's own author and project (created through the admin API so that its secrets are
 * encrypted as the service does it), then 100,000 cards: batch 1 with device_limit 1000 (the
 * new-device pool comes from it), batches 2-10 with device_limit 1 (the bound-device pool).
 */
async function seed(service, ctx) {
  const { base } = service;
  const started = Date.now();
  const adminToken = (await adminCall(base, 'POST', '/admin/v1/auth/login', { json: { username: ctx.adminUsername, password: ctx.adminPassword } }, 200)).token;
  const authorName = `bench-author-${ctx.tag}`;
  const author = await adminCall(base, 'POST', '/admin/v1/authors', { token: adminToken, json: { username: authorName, password: ctx.adminPassword } }, 201);
  const authorToken = (await adminCall(base, 'POST', '/admin/v1/auth/login', { json: { username: authorName, password: ctx.adminPassword } }, 200)).token;
  const project = await adminCall(base, 'POST', '/admin/v1/projects', { token: authorToken, json: { name: `Benchmark ${ctx.tag}` } }, 201);
  ctx.cleanup.authorId = author.id;
  ctx.cleanup.projectId = project.id;

  const batches = [];
  const limits = Array.from({ length: S.cards / S.batchSize }, (_, i) => (i === 0 ? S.newDeviceLimit : 1));
  let how;
  if (ctx.pg) {
    how = 'direct SQL (pg)';
    for (const limit of limits) {
      const codes = Array.from({ length: S.batchSize }, () => cardCode('B'));
      const { rows } = await ctx.pg.query(
        `INSERT INTO cards (project_id, code, duration_seconds, device_limit)
         SELECT $1::uuid, c, 86400, $2::integer FROM unnest($3::varchar[]) AS c
         ON CONFLICT (project_id, code) DO NOTHING RETURNING code`,
        [project.id, limit, codes],
      );
      batches.push(rows.map((r) => r.code));
    }
    await ctx.pg.query('ANALYZE cards');
  } else {
    how = `admin API (${limits.length} × POST /admin/v1/projects/:id/cards)`;
    for (const limit of limits) {
      const res = await api(base, 'POST', `/admin/v1/projects/${project.id}/cards`, {
        token: authorToken,
        json: { count: S.batchSize, duration_seconds: 86400, device_limit: limit },
      });
      if (res.status === 404 || res.status === 405) {
        fail(
          `POST /admin/v1/projects/:id/cards is not available (HTTP ${res.status}): the embedded database can only be seeded through ` +
            'the admin card API. Run with DATABASE_URL (seeded with SQL) or once that route exists.',
        );
      }
      if (res.status !== 201 && res.status !== 200) fail(`creating cards answered HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
      batches.push(res.body.items.map((c) => c.code));
    }
  }
  const total = batches.reduce((n, b) => n + b.length, 0);
  if (total !== S.cards) fail(`seeded ${total} cards instead of ${S.cards}`);
  const seedSeconds = (Date.now() - started) / 1000;

  const fixture = {
    programId: project.program_id,
    projectId: project.id,
    newDevice: batches[0].slice(0, S.newDevicePool),
    bound: batches[1].slice(0, S.boundPool),
    apiSecret: project.api_secret,
    authorToken,
    cardSessions: [],
    users: [],
    userSessions: [],
  };
  if (typeof fixture.apiSecret !== 'string' || !fixture.apiSecret) fail('the project creation answer has no api_secret');
  // Every pool card logs in once: the bound pool binds its device, the new-device pool is
  // activated, so the measured requests are pure "bound device" / "new device on an active card".
  const preStarted = Date.now();
  const logins = [
    ...fixture.bound.map((code, i) => `user_key=${code}&serial=${boundSerial(i)}`),
    ...fixture.newDevice.map((code, i) => `user_key=${code}&serial=first-${i}`),
  ];
  const refused = [];
  await inParallel(logins, 16, async (form) => {
    const res = await api(base, 'POST', `/connect/${fixture.programId}`, { form });
    if (res.status !== 200 || res.body?.status !== true) refused.push(res);
  });
  if (refused.length) {
    fail(
      `${refused.length} of ${logins.length} first logins failed, e.g. ${JSON.stringify(refused[0].body)}` +
        (ctx.pg ? ' (is something else, e.g. a test run, changing the platform settings of this database?)' : ''),
    );
  }
  const preLoginSeconds = (Date.now() - preStarted) / 1000;
  const clients = await seedClients(base, ctx, fixture, authorToken);
  // The seeding's writes would otherwise wake autovacuum during the first measured scenarios.
  if (ctx.pg) await ctx.pg.query('VACUUM ANALYZE cards, card_devices, login_logs, sessions, app_users');
  return { fixture, seed: { how, seconds: seedSeconds, preLogins: logins.length, preLoginSeconds, ...clients } };
}

/**
 * A scenario with signed answers and its unsigned twin, in A-B-B-A order with half the duration
 * each, so that whatever drifts during the run (autovacuum, caches, a neighbour) weighs on both
 * alike. Each result merges its two halves: mean rate and p50, the worse p99, summed counts.
 */
async function runSigningPair(service, signedName, unsignedName, fixture, runTag) {
  const half = S.duration / 2;
  const run = async (name, part) => {
    if (name === unsignedName) await setResponseSigning(service, fixture, false);
    const saved = S.duration;
    S.duration = half;
    try {
      return await runScenario(service, name, fixture, `${runTag}-${part}`);
    } finally {
      S.duration = saved;
      if (name === unsignedName) await setResponseSigning(service, fixture, true);
    }
  };
  const a1 = await run(signedName, 'a1');
  const b1 = await run(unsignedName, 'b1');
  const b2 = await run(unsignedName, 'b2');
  const a2 = await run(signedName, 'a2');
  return [mergeHalves(a1, a2), mergeHalves(b1, b2)];
}

function mergeHalves(x, y) {
  const mean = (k) => (x[k] + y[k]) / 2;
  const cpu = x.cpu && y.cpu ? Object.fromEntries(Object.keys(x.cpu).map((k) => [k, (x.cpu[k] + y.cpu[k]) / 2])) : null;
  return {
    ...x,
    rps: mean('rps'),
    total: x.total + y.total,
    p50: mean('p50'),
    p99: Math.max(x.p99, y.p99),
    non2xx: x.non2xx + y.non2xx,
    statusFalse: x.statusFalse + y.statusFalse,
    errors: x.errors + y.errors,
    checkAfter: x.checkAfter && y.checkAfter,
    failures: [...x.failures, ...y.failures],
    cpu,
  };
}

/** Switches the benchmark project's signed answers on or off (the admin PATCH drops the cached program everywhere). */
async function setResponseSigning(service, fixture, on) {
  await adminCall(service.base, 'PATCH', `/admin/v1/projects/${fixture.projectId}`, { token: fixture.authorToken, json: { response_signing: on } }, 200);
}

/** Signature headers of a V3 / SDK request (decisions §3): HMAC-SHA256 over method, path, timestamp, nonce, raw body. */
function signedHeaders(secret, route, body, nonce, contentType) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`POST\n${route}\n${timestamp}\n${nonce}\n${body}`).digest('hex');
  return { 'content-type': contentType, 'x-svc-timestamp': timestamp, 'x-svc-nonce': nonce, 'x-svc-signature': signature };
}

/** A signed SDK call with a JSON body; fails the run unless the answer is HTTP 200 with code 0. */
async function sdkCall(base, fixture, route, json, nonce) {
  const body = JSON.stringify(json);
  const res = await api(base, 'POST', route, { body, headers: signedHeaders(fixture.apiSecret, route, body, nonce, JSON_TYPE) });
  if (res.status !== 200 || res.body?.code !== 0 || res.body?.success !== true) {
    fail(`POST ${route} answered HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  }
  return res.body;
}

/**
 * The pools of the standard-route scenarios: SDK card sessions on the first bound-pool cards (their
 * bound device), and program users (policy 'free', so that their logins do not revoke each other)
 * with a few sessions each. Only what the selected scenarios need.
 */
async function seedClients(base, ctx, fixture, authorToken) {
  const started = Date.now();
  let n = 0;
  const nonce = () => `seed-${ctx.tag}-${n++}`;
  const app = fixture.programId;
  if (S.scenarios.includes('card-heartbeat')) {
    const count = Math.min(S.cardSessions, fixture.bound.length);
    fixture.cardSessions = new Array(count);
    await inParallel(Array.from({ length: count }, (_, i) => i), 16, async (i) => {
      const answer = await sdkCall(base, fixture, PATHS.sdkCardLogin, { app, card_key: fixture.bound[i], machine_id: boundSerial(i) }, nonce());
      const token = answer.data?.session_token;
      if (typeof token !== 'string') fail(`SDK card login gave no session_token: ${JSON.stringify(answer).slice(0, 400)}`);
      fixture.cardSessions[i] = { token, machine: boundSerial(i) };
    });
  }
  if (S.scenarios.includes('user-login') || S.scenarios.includes('user-heartbeat')) {
    await adminCall(base, 'PATCH', `/admin/v1/projects/${fixture.projectId}`, { token: authorToken, json: { user_machine_policy: 'free' } }, 200);
    fixture.users = Array.from({ length: S.users }, (_, i) => ({ username: `bench_${ctx.tag}_${i}`, password: randomBytes(9).toString('base64url'), machine: `user-device-${i}` }));
    await inParallel(fixture.users, 4, async (u) => {
      await sdkCall(base, fixture, PATHS.userRegister, { app, username: u.username, password: u.password, machine_id: u.machine }, nonce());
    });
    if (S.scenarios.includes('user-heartbeat')) {
      const logins = fixture.users.flatMap((u) => Array.from({ length: S.sessionsPerUser }, () => u));
      await inParallel(logins, 4, async (u) => {
        const answer = await sdkCall(base, fixture, PATHS['user-login'], { app, username: u.username, password: u.password, machine_id: u.machine }, nonce());
        const token = answer.data?.session_token;
        if (typeof token !== 'string') fail(`SDK user login gave no session_token: ${JSON.stringify(answer).slice(0, 400)}`);
        fixture.userSessions.push({ token, machine: u.machine });
      });
    }
  }
  return {
    cardSessions: fixture.cardSessions.length,
    users: fixture.users.length,
    userSessions: fixture.userSessions.length,
    clientSeconds: (Date.now() - started) / 1000,
  };
}

const boundSerial = (i) => `bound-device-${i}`;

// ---------------------------------------------------------------------------------------------
// Scenarios

/** The form body of the next request of a scenario; every call differs where the scenario needs it. */
function bodies(name, fixture, runTag) {
  let n = 0;
  const { bound, newDevice } = fixture;
  switch (name) {
    case 'baseline':
      return () => `user_key=${bound[n++ % bound.length]}&serial=${boundSerial(0)}`;
    case 'bound':
    case 'bound-unsigned':
      return () => {
        const i = n++ % bound.length;
        return `user_key=${bound[i]}&serial=${boundSerial(i)}`;
      };
    case 'new-device':
      return () => `user_key=${newDevice[n % newDevice.length]}&serial=new-${runTag}-${n++}`;
    case 'nonce':
      return () => {
        const i = n % bound.length;
        return `user_key=${bound[i]}&serial=${boundSerial(i)}&nonce=${runTag}-${n++}`;
      };
  }
}

const routeOf = (name, fixture) => PATHS[name] ?? (name === 'baseline' ? '/bench/baseline' : `/connect/${fixture.programId}`);

/**
 * The next request of a scenario as { headers, body }: Connect and the baseline post a form; the
 * signed routes sign every request (its own timestamp and a unique nonce); heartbeats carry a
 * session token of the pool, round-robin, with the session's machine.
 */
function requests(name, fixture, runTag) {
  const route = routeOf(name, fixture);
  const app = fixture.programId;
  let n = 0;
  const signed = (body, contentType) => ({ headers: signedHeaders(fixture.apiSecret, route, body, `${runTag}-${name}-${n++}`, contentType), body });
  const bearer = (pool) => {
    if (!pool.length) fail(`${name}: the session pool is empty`);
    const s = pool[n++ % pool.length];
    return { headers: { 'content-type': JSON_TYPE, authorization: `Bearer ${s.token}` }, body: JSON.stringify({ machine_id: s.machine }) };
  };
  switch (name) {
    case 'v3':
    case 'v3-unsigned': {
      const { bound } = fixture;
      return () => {
        const i = n % bound.length;
        return signed(`app=${app}&kami=${bound[i]}&imei=${boundSerial(i)}`, FORM);
      };
    }
    case 'card-heartbeat':
      return () => bearer(fixture.cardSessions);
    case 'user-heartbeat':
      return () => bearer(fixture.userSessions);
    case 'user-login': {
      const { users } = fixture;
      if (!users.length) fail('user-login: no users were registered');
      return () => {
        const u = users[n % users.length];
        return signed(JSON.stringify({ app, username: u.username, password: u.password, machine_id: u.machine }), JSON_TYPE);
      };
    }
    default: {
      const nextBody = bodies(name, fixture, runTag);
      return () => ({ headers: { 'content-type': FORM }, body: nextBody() });
    }
  }
}

/** Whether a parsed answer body is a success of the scenario. */
function succeeded(name, body) {
  if (STANDARD.has(name)) {
    if (body?.code !== 0 || body?.success !== true) return false;
    if (name === 'user-login') return typeof body.data?.session_token === 'string';
    if (name === 'v3' || name === 'v3-unsigned') return typeof body.token === 'string';
    return true;
  }
  return body?.status === true && (name === 'baseline' || typeof body?.data?.token === 'string');
}

// CPU time by process around each measured run (Linux /proc): who uses the cores.
let clockTicks = 100;
try {
  clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // keep 100
}

function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return 0;
  }
}

/** CPU ms so far of the service, the load generator (this process), PostgreSQL and Redis processes, and the machine. */
function cpuSnapshot(servicePid) {
  if (!existsSync('/proc/stat')) return null;
  const own = process.cpuUsage();
  const snap = { service: processCpuMs(servicePid), loadgen: (own.user + own.system) / 1000, postgres: 0, redis: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let comm;
    try {
      comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm === 'postgres') snap.postgres += processCpuMs(entry);
    else if (comm === 'redis-server') snap.redis += processCpuMs(entry);
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  snap.machineTotal = (total * 1000) / clockTicks;
  snap.machineBusy = ((total - cpu[3] - cpu[4]) * 1000) / clockTicks;
  return snap;
}

/** CPU ms per request by consumer; `other` is the rest of the machine's busy time (other programs, kernel). */
function cpuPerRequest(before, after, requests) {
  if (!before || !after || !requests) return null;
  const d = (k) => after[k] - before[k];
  const known = d('service') + d('loadgen') + d('postgres') + d('redis');
  return {
    service: d('service') / requests,
    loadgen: d('loadgen') / requests,
    // A PostgreSQL backend that exits during the run takes its CPU time with it: never below 0.
    postgres: Math.max(0, d('postgres')) / requests,
    redis: d('redis') / requests,
    other: Math.max(0, d('machineBusy') - known) / requests,
    busyShare: d('machineBusy') / d('machineTotal'),
    /** The service's CPU time over the wall time: 1.0 = one core busy all along. */
    serviceCores: d('service') / (d('machineTotal') / os.cpus().length),
  };
}

/** CLOCK_MONOTONIC in µs, the clock of V8 CPU profiles: bench/profile-summary.mjs --window uses it. */
const hrMicros = () => Number(process.hrtime.bigint() / 1000n);
const profileWindows = {};

/**
 * One request checked in full: HTTP 200 and a JSON body with status === true (and a token on
 * logins), or on the standard routes code 0 and success true (and a token on logins).
 */
async function sample(base, name, route, request) {
  const res = await api(base, 'POST', route, request);
  const ok = res.status === 200 && succeeded(name, res.body);
  return { ok, status: res.status, body: res.body };
}

/** Every answer body checked during the run (a cheap prefix test for Connect, parsed on the standard routes). */
function bodyCheck(name, failures) {
  const ok = STANDARD.has(name)
    ? (body) => {
        try {
          const parsed = JSON.parse(body);
          return parsed.code === 0 && parsed.success === true;
        } catch {
          return false;
        }
      }
    : // Connect refusals are HTTP 200 with status false; success bodies of Connect and the baseline both start like this.
      (body) => body.startsWith('{"status":true');
  return (body) => {
    if (ok(body)) return true;
    if (failures.length < 3) failures.push(body.slice(0, 300));
    return false;
  };
}

function cannon(base, name, route, nextRequest, duration, failures = []) {
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

async function runScenario(service, name, fixture, runTag) {
  const route = routeOf(name, fixture);
  const nextRequest = requests(name, fixture, runTag);
  const before = await sample(service.base, name, route, nextRequest());
  if (!before.ok) fail(`${service.adapter} / ${name}: the check before measuring failed: HTTP ${before.status} ${JSON.stringify(before.body)}`);
  await cannon(service.base, name, route, nextRequest, S.warmup);
  const from = hrMicros();
  const failures = [];
  const cpuBefore = cpuSnapshot(service.pid);
  const r = await cannon(service.base, name, route, nextRequest, S.duration, failures);
  const cpu = cpuPerRequest(cpuBefore, cpuSnapshot(service.pid), r.requests.total);
  if (S.cpuProfDir) profileWindows[`${service.adapter}/${name}`] = { from, to: hrMicros() };
  const afterRequest = nextRequest();
  const after = await sample(service.base, name, route, afterRequest);
  let replayRefused;
  if (name === 'nonce') {
    // The nonce of the last check, sent again: must be refused (HTTP 409, status false).
    const replay = await api(service.base, 'POST', route, afterRequest);
    replayRefused = replay.body?.status === false ? `HTTP ${replay.status}, code ${replay.body.code}` : false;
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

/** Database queries and Redis commands per login, from sequential logins on an idle service. */
async function probeRoundTrips(service, fixture, runTag) {
  const out = {};
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
async function argonRate() {
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

function argonLine(report) {
  const a = report.argon;
  if (!a) return null;
  const logins = report.results.filter((r) => r.scenario === 'user-login').map((r) => `${r.adapter} ${fmtInt(r.rps)}`);
  return (
    `argon2 (\`@node-rs/argon2\` hash(), defaults, ${S.argonConcurrency} in flight, ${a.seconds.toFixed(1)} s in the bench process with the service stopped): ` +
    `${fmtInt(a.rate)} hashes/s (${a.msEach.toFixed(0)} ms each); user logins/s: ${logins.join(', ') || 'not measured'}.`
  );
}

// ---------------------------------------------------------------------------------------------
// Reporting

const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
const fmtMs = (n) => (n >= 10 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, ''));
const fmtPct = (x) => `${(x * 100).toFixed(1)} %`;

function rows(results) {
  return results.map((r) => {
    const baseline = results.find((b) => b.adapter === r.adapter && b.scenario === 'baseline');
    const ratio = baseline ? r.rps / baseline.rps : null;
    const target = SCENARIOS[r.scenario].target;
    let verdict = '';
    if (target && ratio !== null) {
      const met = ratio >= target.ratio && (!target.p99 || r.p99 <= target.p99) && r.non2xx === 0 && r.statusFalse === 0;
      verdict = met ? 'met' : 'MISSED';
    }
    const notes = [];
    if (r.failures.length) notes.push(`failed answers, e.g. ${r.failures.join(' ')}`);
    if (!r.checkAfter) notes.push(`check after run failed: ${r.checkAfterDetail}`);
    if (typeof r.replayRefused === 'string') notes.push(`a replayed nonce is refused (${r.replayRefused})`);
    if (r.replayRefused === false) notes.push('A REPLAYED NONCE WAS ACCEPTED');
    return {
      adapter: r.adapter,
      scenario: SCENARIOS[r.scenario].short,
      rps: fmtInt(r.rps),
      p50: fmtMs(r.p50),
      p99: fmtMs(r.p99),
      non2xx: fmtInt(r.non2xx),
      statusFalse: r.scenario === 'baseline' ? '—' : fmtInt(r.statusFalse),
      errors: fmtInt(r.errors),
      ratio: r.scenario === 'baseline' ? '100 %' : ratio === null ? '—' : fmtPct(ratio),
      target: target ? `${targetText(target)}: ${verdict}` : '',
      notes: notes.join('; '),
      total: fmtInt(r.total),
    };
  });
}

const COLUMNS = [
  ['adapter', 'adapter'],
  ['scenario', 'scenario'],
  ['rps', 'req/s'],
  ['p50', 'p50 ms'],
  ['p99', 'p99 ms'],
  ['non2xx', 'non-2xx'],
  ['statusFalse', 'status false'],
  ['errors', 'errors'],
  ['ratio', 'vs baseline'],
  ['target', 'target'],
];
const NUMERIC = new Set(['rps', 'p50', 'p99', 'non2xx', 'statusFalse', 'errors', 'ratio']);

function textTable(results) {
  const data = rows(results);
  const widths = COLUMNS.map(([key, title]) => Math.max(title.length, ...data.map((d) => d[key].length)));
  const line = (cells) => cells.map((c, i) => (NUMERIC.has(COLUMNS[i][0]) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(COLUMNS.map(([, t]) => t)), widths.map((w) => '-'.repeat(w)).join('  ')];
  let last;
  for (const d of data) {
    if (last && last !== d.adapter) out.push('');
    last = d.adapter;
    out.push(line(COLUMNS.map(([k]) => d[k])));
    if (d.notes) out.push(`    note: ${d.notes}`);
  }
  return out.join('\n');
}

function markdownTable(results) {
  const data = rows(results);
  const out = [`| ${COLUMNS.map(([, t]) => t).join(' | ')} |`, `|${COLUMNS.map(([k]) => (NUMERIC.has(k) ? '---:' : '---')).join('|')}|`];
  for (const d of data) out.push(`| ${COLUMNS.map(([k]) => d[k]).join(' | ')} |`);
  const notes = data.filter((d) => d.notes).map((d) => `- ${d.adapter} / ${d.scenario}: ${d.notes}`);
  return [...out, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

const CPU_COLUMNS = [
  ['adapter', 'adapter'],
  ['scenario', 'scenario'],
  ['service', 'service'],
  ['serviceCores', 'service cores'],
  ['loadgen', 'load generator'],
  ['postgres', 'PostgreSQL'],
  ['redis', 'Redis'],
  ['other', 'other'],
  ['busy', 'machine busy'],
];

function cpuRows(results) {
  return results
    .filter((r) => r.cpu)
    .map((r) => ({
      adapter: r.adapter,
      scenario: SCENARIOS[r.scenario].short,
      service: r.cpu.service.toFixed(2),
      serviceCores: r.cpu.serviceCores.toFixed(2),
      loadgen: r.cpu.loadgen.toFixed(2),
      postgres: r.cpu.postgres.toFixed(2),
      redis: r.cpu.redis.toFixed(2),
      other: r.cpu.other.toFixed(2),
      busy: `${Math.round(r.cpu.busyShare * 100)} %`,
    }));
}

function cpuTextTable(results) {
  const data = cpuRows(results);
  const widths = CPU_COLUMNS.map(([key, title]) => Math.max(title.length, ...data.map((d) => d[key].length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(CPU_COLUMNS.map(([, t]) => t)), widths.map((w) => '-'.repeat(w)).join('  '), ...data.map((d) => line(CPU_COLUMNS.map(([k]) => d[k])))].join('\n');
}

function cpuMarkdownTable(results) {
  const data = cpuRows(results);
  return [
    `| ${CPU_COLUMNS.map(([, t]) => t).join(' | ')} |`,
    `|${CPU_COLUMNS.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
    ...data.map((d) => `| ${CPU_COLUMNS.map(([k]) => d[k]).join(' | ')} |`),
  ].join('\n');
}

const CPU_NOTE =
  'CPU ms per request over each measured run, from /proc: the service process (PGlite included on the embedded default), ' +
  'the load generator (the bench process), all PostgreSQL and Redis processes, and the rest of the machine\'s busy time ' +
  '(other programs, kernel); "service cores" is the service\'s CPU time over the wall time.';

function roundTripLines(probe) {
  const count = (n, one, many) => `${fmtRt(n)} ${n === 1 ? one : many}`;
  return Object.entries(probe).map(
    ([name, v]) => `${SCENARIOS[name].short}: ${count(v.pg, 'database query', 'database queries')}, ${count(v.redis, 'Redis command', 'Redis commands')}`,
  );
}
const fmtRt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

function machine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return {
    cores,
    model,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadBefore: os.loadavg()[0],
  };
}

/** The code measured: HEAD and whether the working tree differs (read-only git commands). */
function codeVersion() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'migrations') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in src/ or migrations/' : ''}`;
  } catch {
    return 'unknown commit';
  }
}

function commandLine(ctx) {
  const vars = [];
  if (ctx.pg) vars.push('DATABASE_URL=postgres://…');
  if (process.env.REDIS_URL) vars.push('REDIS_URL=redis://…');
  if (ctx.pg) vars.push('APP_ENCRYPTION_KEY=<64 hex>');
  for (const name of ['BENCH_DURATION', 'BENCH_WARMUP', 'BENCH_CONNECTIONS', 'BENCH_ADAPTERS', 'BENCH_SCENARIOS']) {
    if (process.env[name]) vars.push(`${name}=${process.env[name]}`);
  }
  return [...vars, 'npm run bench'].join(' ');
}

function writeDoc(ctx, report) {
  const m = report.machine;
  const block = [
    `### ${ctx.label}`,
    '',
    `Measured ${report.date} with \`${commandLine(ctx)}\` on ${report.code}.`,
    `Machine: ${m.cores} cores (${m.model}), ${m.memory} RAM, ${m.platform}, Node ${m.node}${ctx.versions ? `, ${ctx.versions}` : ''}.`,
    `Load: autocannon ${S.connections} connections, ${S.duration} s per scenario after a ${S.warmup} s warm-up, in the same process as the`,
    `orchestrator, on the same ${m.cores} cores as the service${ctx.pg ? ', PostgreSQL and Redis' : ''}.`,
    `1-minute load average before / at the end of the run: ${m.loadBefore.toFixed(2)} / ${report.loadAfter.toFixed(2)} (the bench itself accounts for about 2).`,
    `Data: ${fmtInt(S.cards)} cards seeded by ${report.seed.how} in ${report.seed.seconds.toFixed(1)} s; ${fmtInt(report.seed.preLogins)} pool cards logged in once beforehand` +
      (report.seed.cardSessions || report.seed.users
        ? `; ${fmtInt(report.seed.cardSessions)} SDK card sessions, ${fmtInt(report.seed.users)} program users (policy free) and ${fmtInt(report.seed.userSessions)} user sessions opened beforehand.`
        : '.'),
    '',
    markdownTable(report.results),
    '',
    `${CPU_NOTE}`,
    '',
    cpuMarkdownTable(report.results),
    '',
    `Round trips per request (${S.probeLogins} sequential requests each on the idle service, ${report.probeAdapter}): ${roundTripLines(report.probe).join('; ') || 'not measured'}.`,
    ...(argonLine(report) ? ['', argonLine(report)] : []),
  ].join('\n');
  const begin = `<!-- bench:begin ${ctx.key} -->`;
  const end = `<!-- bench:end ${ctx.key} -->`;
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Performance\n';
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) doc = `${doc.slice(0, from + begin.length)}\n${block}\n${doc.slice(to)}`;
  else doc = `${doc.trimEnd()}\n\n${begin}\n${block}\n${end}\n`;
  mkdirSync(path.dirname(DOC), { recursive: true });
  writeFileSync(DOC, doc);
}

// ---------------------------------------------------------------------------------------------
// Main

async function connectPg(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function versions(ctx) {
  const parts = [];
  if (ctx.pg) parts.push(`PostgreSQL ${(await ctx.pg.query('SHOW server_version')).rows[0].server_version.split(' ')[0]}`);
  if (process.env.REDIS_URL) {
    try {
      const { default: Redis } = await import('ioredis');
      const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      const info = await redis.info('server');
      await redis.quit();
      parts.push(`Redis ${/redis_version:(\S+)/.exec(info)?.[1] ?? '?'}`);
    } catch {
      parts.push('Redis (version unknown)');
    }
  }
  return parts.join(', ');
}

async function cleanup(ctx) {
  if (ctx.pg) {
    // The bench's rows only: its project (cards, devices, login log cascade), its author, its admin.
    try {
      if (ctx.cleanup.projectId) await ctx.pg.query('DELETE FROM projects WHERE id = $1', [ctx.cleanup.projectId]);
      const users = [ctx.cleanup.authorId, ctx.cleanup.adminUsername].filter(Boolean);
      if (users.length) await ctx.pg.query('DELETE FROM admin_users WHERE id::text = ANY($1) OR lower(username) = ANY($1)', [users]);
    } catch (error) {
      process.stderr.write(`warning: could not remove the bench's rows from PostgreSQL: ${error.message}\n`);
    }
    await ctx.pg.end().catch(() => undefined);
  }
  if (ctx.dataDir) rmSync(ctx.dataDir, { recursive: true, force: true });
  if (ctx.buildCopy) {
    rmSync(ctx.buildCopy, { recursive: true, force: true });
    try {
      rmdirSync(path.dirname(ctx.buildCopy)); // only when no other run is using it
    } catch {
      // not empty
    }
  }
}

async function main() {
  if (!existsSync(MAIN)) fail(`${path.relative(ROOT, MAIN)} is missing: run \`npm run build\` first (npm run bench does).`);
  const tag = randomBytes(4).toString('hex');
  const databaseUrl = process.env.DATABASE_URL;
  const ctx = {
    tag,
    key: databaseUrl ? 'postgresql' : 'embedded',
    label: databaseUrl
      ? `PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ' + in-process state'}`
      : 'Embedded default (PGlite + in-process state)',
    // A platform admin of the bench's own (created by the service at start, removed at the end on PostgreSQL).
    adminUsername: `bench-${tag}`,
    adminPassword: randomBytes(12).toString('hex'),
    cleanup: {},
    pg: null,
    dataDir: null,
  };
  ctx.cleanup.adminUsername = ctx.adminUsername;
  const childEnv = {
    ADMIN_USERNAME: ctx.adminUsername,
    ADMIN_PASSWORD: ctx.adminPassword,
    ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    // The failed-login limiter reserves a slot per attempt in flight (refunded unless the password
    // was wrong): with the default 10, more than 10 concurrent logins from one address are refused.
    APP_USER_LOGIN_ATTEMPTS_PER_MINUTE: '100000',
  };

  const report = { code: codeVersion(), machine: machine(), date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', results: [], probe: {} };
  const log = (msg) => process.stdout.write(`${msg}\n`);
  log(`${ctx.label}: ${S.adapters.join(' then ')}, ${S.connections} connections, ${S.duration} s per scenario (+${S.warmup} s warm-up)`);
  log(`machine: ${report.machine.cores} cores, ${report.machine.model}, ${report.machine.memory}, Node ${report.machine.node}`);
  if (report.machine.loadBefore > 1.5) {
    log(`warning: load average ${report.machine.loadBefore.toFixed(2)} before start: something else is using the CPU, figures will be low`);
  }
  const benchStarted = Date.now();
  activeCtx = ctx;
  try {
    if (databaseUrl) {
      if (!process.env.APP_ENCRYPTION_KEY) {
        // Only the bench's own project is read and written: any key will do, but say so.
        childEnv.APP_ENCRYPTION_KEY = randomBytes(32).toString('hex');
        process.stderr.write('note: APP_ENCRYPTION_KEY is unset; the service runs with a random key for this benchmark\n');
      }
      ctx.pg = await connectPg(databaseUrl);
    } else {
      ctx.dataDir = mkdtempSync(path.join(os.tmpdir(), 'ck-bench-'));
      childEnv.DATA_DIR = ctx.dataDir;
    }
    if (S.cpuProfDir) mkdirSync(S.cpuProfDir, { recursive: true });
    // A private copy of the build: another `npm run build` (rm -rf dist) during the run must not pull
    // it away between the two starts. Under node_modules/ so that the copy resolves the same packages.
    ctx.buildCopy = path.join(ROOT, 'node_modules/.cache/cardkey-bench', tag);
    cpSync(path.join(ROOT, 'dist'), path.join(ctx.buildCopy, 'dist'), { recursive: true });
    const main = path.join(ctx.buildCopy, 'dist', path.relative(path.join(ROOT, 'dist'), MAIN));
    ctx.versions = await versions(ctx);
    let fixture;
    for (const adapter of S.adapters) {
      const service = await startService(adapter, childEnv, main);
      log(`\n[${adapter}] ready in ${service.bootSeconds.toFixed(1)} s`);
      try {
        if (!fixture) {
          const seeded = await seed(service, ctx);
          fixture = seeded.fixture;
          report.seed = seeded.seed;
          log(
            `[${adapter}] seeded ${fmtInt(S.cards)} cards by ${seeded.seed.how} in ${seeded.seed.seconds.toFixed(1)} s; ` +
              `${fmtInt(seeded.seed.preLogins)} first logins in ${seeded.seed.preLoginSeconds.toFixed(1)} s`,
          );
          if (seeded.seed.cardSessions || seeded.seed.users) {
            log(
              `[${adapter}] ${seeded.seed.cardSessions} card sessions, ${seeded.seed.users} users, ${seeded.seed.userSessions} user sessions ` +
                `in ${seeded.seed.clientSeconds.toFixed(1)} s`,
            );
          }
          report.probe = await probeRoundTrips(service, fixture, tag);
          report.probeAdapter = adapter;
          for (const line of roundTripLines(report.probe)) log(`[${adapter}] ${line}`);
        }
        for (const name of S.scenarios) {
          const twin = `${name}-unsigned`;
          if (UNSIGNED.has(name) && S.scenarios.includes(name.replace(/-unsigned$/, ''))) continue; // measured with its signed twin
          const results = UNSIGNED.has(twin) && S.scenarios.includes(twin)
            ? await runSigningPair(service, name, twin, fixture, `${tag}-${adapter}`)
            : [await runScenario(service, name, fixture, `${tag}-${adapter}`)];
          for (const result of results) {
            report.results.push(result);
            log(`[${adapter}] ${SCENARIOS[result.scenario].title}: ${fmtInt(result.rps)} req/s, p50 ${fmtMs(result.p50)} ms, p99 ${fmtMs(result.p99)} ms`);
          }
        }
      } finally {
        await service.stop();
      }
    }
    if (S.scenarios.includes('user-login')) {
      report.argon = await argonRate();
      log(`\nargon2 hash() in the bench process: ${fmtInt(report.argon.rate)} hashes/s (${report.argon.msEach.toFixed(0)} ms each, ${S.argonConcurrency} in flight)`);
    }
  } finally {
    await cleanup(ctx);
    if (S.cpuProfDir) {
      const file = path.join(S.cpuProfDir, 'windows.json');
      const earlier = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
      writeFileSync(file, JSON.stringify({ ...earlier, ...profileWindows }, null, 2));
    }
  }
  report.loadAfter = os.loadavg()[0];
  log(`\n${ctx.label} — ${fmtInt(S.cards)} cards — autocannon ${S.connections} connections, ${S.duration} s per scenario\n`);
  log(textTable(report.results));
  log('\nCPU time per request (ms):');
  log(cpuTextTable(report.results));
  log('\nround trips per request (sequential requests, idle service):');
  for (const line of roundTripLines(report.probe)) log(`  ${line}`);
  if (argonLine(report)) log(`\n${argonLine(report)}`);
  log(`\nThe load generator runs on the same ${report.machine.cores} cores as the service: ratios are comparable, absolute figures are pessimistic.`);
  log(`1-minute load average before / at the end: ${report.machine.loadBefore.toFixed(2)} / ${report.loadAfter.toFixed(2)} (the bench itself accounts for about 2).`);
  if (WRITE_DOC) {
    writeDoc(ctx, report);
    log(`figures written to ${path.relative(ROOT, DOC)} (${ctx.key} section)`);
  } else {
    log('(non-default settings: docs/performance.md left as is; BENCH_WRITE_DOC=1 writes it anyway)');
  }
  log(`total ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
  process.stderr.write(`\nbench failed: ${error instanceof BenchError ? error.message : error?.stack ?? error}\n`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
});
