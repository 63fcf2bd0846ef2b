// The bench's own author, project, 100,000 cards and the pools the scenarios need.
import { randomBytes, randomInt } from 'node:crypto';
import { adminCall, api, inParallel, prop } from './http';
import { boundSerial, countSerial, PATHS, signedHeaders } from './scenarios';
import type { Service } from './service-process';
import { fail, JSON_TYPE, S } from './settings';
import type { BenchContext, Fixture, SeedSummary } from './types';

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const cardCode = (prefix: string): string =>
  prefix + Array.from({ length: 20 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

interface LoginAnswer {
  token: string;
}
interface Created {
  id: string;
}
interface ProjectAnswer extends Created {
  program_id: string;
  api_secret: unknown;
}
interface CardsAnswer {
  items: { code: string }[];
}

/**
 * The bench's own author and project (created through the admin API so that its secrets are
 * encrypted as the service does it), then 100,000 cards: batch 1 with device_limit 1000 (the
 * new-device pool comes from it), batches 2-10 with device_limit 1 (the bound-device pool).
 */
export async function seed(service: Service, ctx: BenchContext): Promise<{ fixture: Fixture; seed: SeedSummary }> {
  const { base } = service;
  const started = Date.now();
  const adminLogin = { json: { username: ctx.adminUsername, password: ctx.adminPassword } };
  const adminToken = (await adminCall<LoginAnswer>(base, 'POST', '/admin/v1/auth/login', adminLogin, 200)).token;
  const authorName = `bench-author-${ctx.tag}`;
  const authorJson = { username: authorName, password: ctx.adminPassword };
  const author = await adminCall<Created>(base, 'POST', '/admin/v1/authors', { token: adminToken, json: authorJson }, 201);
  const authorToken = (await adminCall<LoginAnswer>(base, 'POST', '/admin/v1/auth/login', { json: authorJson }, 200)).token;
  // The sessions made here serve the heartbeats of both adapters, a quarter of an hour apart and
  // more: past the default lifetime (10 min), which a heartbeat renews only in its second half.
  const projectJson = { name: `Benchmark ${ctx.tag}`, session_ttl_seconds: 86400 };
  const project = await adminCall<ProjectAnswer>(
    base,
    'POST',
    '/admin/v1/projects',
    { token: authorToken, json: projectJson },
    201,
  );
  ctx.cleanup.authorId = author.id;
  ctx.cleanup.projectId = project.id;

  const batches: string[][] = [];
  const limits = Array.from({ length: S.cards / S.batchSize }, (_, i) => (i === 0 ? S.newDeviceLimit : 1));
  let how: string;
  if (ctx.pg) {
    how = 'direct SQL (pg)';
    for (const limit of limits) {
      const codes = Array.from({ length: S.batchSize }, () => cardCode('B'));
      const { rows } = await ctx.pg.query<{ code: string }>(
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
      if (res.status !== 201 && res.status !== 200)
        fail(`creating cards answered HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
      batches.push((res.body as CardsAnswer).items.map((c) => c.code));
    }
  }
  const total = batches.reduce((n, b) => n + b.length, 0);
  if (total !== S.cards) fail(`seeded ${total} cards instead of ${S.cards}`);
  const seedSeconds = (Date.now() - started) / 1000;

  if (typeof project.api_secret !== 'string' || !project.api_secret) fail('the project creation answer has no api_secret');
  // Count cards with uses for far more logins than a run makes (decisions §13).
  const countCards = await api(base, 'POST', `/admin/v1/projects/${project.id}/cards`, {
    token: authorToken,
    json: { count: S.boundPool, kind: 'count', uses: 1_000_000, duration_seconds: 86400, device_limit: 1 },
  });
  if (countCards.status !== 201)
    fail(`creating count cards answered HTTP ${countCards.status}: ${JSON.stringify(countCards.body).slice(0, 400)}`);
  const fixture: Fixture = {
    programId: project.program_id,
    projectId: project.id,
    newDevice: batches[0].slice(0, S.newDevicePool),
    bound: batches[1].slice(0, S.boundPool),
    count: (countCards.body as CardsAnswer).items.map((c) => c.code),
    apiSecret: project.api_secret,
    authorToken,
    cardSessions: [],
    users: [],
    userSessions: [],
  };
  // Every pool card logs in once: the bound pool binds its device, the new-device pool is
  // activated, so the measured requests are pure "bound device" / "new device on an active card".
  const preStarted = Date.now();
  const logins = [
    ...fixture.bound.map((code, i) => `user_key=${code}&serial=${boundSerial(i)}`),
    ...fixture.count.map((code, i) => `user_key=${code}&serial=${countSerial(i)}`),
    ...fixture.newDevice.map((code, i) => `user_key=${code}&serial=first-${i}`),
  ];
  const refused: { status: number; body: unknown }[] = [];
  await inParallel(logins, 16, async (form) => {
    const res = await api(base, 'POST', `/connect/${fixture.programId}`, { form });
    if (res.status !== 200 || prop(res.body, 'status') !== true) refused.push(res);
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
  if (ctx.pg) await vacuumLoginTables(ctx.pg);
  return { fixture, seed: { how, seconds: seedSeconds, preLogins: logins.length, preLoginSeconds, ...clients } };
}

/** VACUUM ANALYZE of the tables that seeding and logins write, so that autovacuum finds nothing to do for a while. */
export async function vacuumLoginTables(pg: NonNullable<BenchContext['pg']>): Promise<void> {
  await pg.query('VACUUM ANALYZE cards, card_devices, login_logs, login_daily_counts, sessions, app_users');
}

/** A signed SDK call with a JSON body; fails the run unless the answer is HTTP 200 with code 0. */
async function sdkCall(base: string, fixture: Fixture, route: string, json: unknown, nonce: string): Promise<unknown> {
  const body = JSON.stringify(json);
  const res = await api(base, 'POST', route, { body, headers: signedHeaders(fixture.apiSecret, route, body, nonce, JSON_TYPE) });
  if (res.status !== 200 || prop(res.body, 'code') !== 0 || prop(res.body, 'success') !== true) {
    fail(`POST ${route} answered HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  }
  return res.body;
}

/** The session_token of an SDK login answer; fails the run without one. */
function sessionToken(answer: unknown, what: string): string {
  const token = prop(answer, 'data', 'session_token');
  if (typeof token !== 'string') fail(`${what} gave no session_token: ${JSON.stringify(answer).slice(0, 400)}`);
  return token;
}

/**
 * The pools of the standard-route scenarios: SDK card sessions on the first bound-pool cards (their
 * bound device), and program users (policy 'free', so that their logins do not revoke each other)
 * with a few sessions each. Only what the selected scenarios need.
 */
async function seedClients(
  base: string,
  ctx: BenchContext,
  fixture: Fixture,
  authorToken: string,
): Promise<Pick<SeedSummary, 'cardSessions' | 'users' | 'userSessions' | 'clientSeconds'>> {
  const started = Date.now();
  let n = 0;
  const nonce = (): string => `seed-${ctx.tag}-${n++}`;
  const app = fixture.programId;
  if (S.scenarios.includes('card-heartbeat')) {
    const count = Math.min(S.cardSessions, fixture.bound.length);
    fixture.cardSessions = new Array(count);
    await inParallel(
      Array.from({ length: count }, (_, i) => i),
      16,
      async (i) => {
        const json = { app, card_key: fixture.bound[i], machine_id: boundSerial(i) };
        const answer = await sdkCall(base, fixture, PATHS.sdkCardLogin, json, nonce());
        fixture.cardSessions[i] = { token: sessionToken(answer, 'SDK card login'), machine: boundSerial(i) };
      },
    );
  }
  if (S.scenarios.includes('user-login') || S.scenarios.includes('user-heartbeat')) {
    const policy = { token: authorToken, json: { user_machine_policy: 'free' } };
    await adminCall(base, 'PATCH', `/admin/v1/projects/${fixture.projectId}`, policy, 200);
    fixture.users = Array.from({ length: S.users }, (_, i) => ({
      username: `bench_${ctx.tag}_${i}`,
      password: randomBytes(9).toString('base64url'),
      machine: `user-device-${i}`,
    }));
    await inParallel(fixture.users, 4, async (u) => {
      await sdkCall(
        base,
        fixture,
        PATHS.userRegister,
        { app, username: u.username, password: u.password, machine_id: u.machine },
        nonce(),
      );
    });
    if (S.scenarios.includes('user-heartbeat')) {
      const logins = fixture.users.flatMap((u) => Array.from({ length: S.sessionsPerUser }, () => u));
      await inParallel(logins, 4, async (u) => {
        const json = { app, username: u.username, password: u.password, machine_id: u.machine };
        const answer = await sdkCall(base, fixture, PATHS['user-login'], json, nonce());
        fixture.userSessions.push({ token: sessionToken(answer, 'SDK user login'), machine: u.machine });
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
