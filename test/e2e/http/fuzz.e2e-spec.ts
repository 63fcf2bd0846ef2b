import fc from 'fast-check';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { hmacSignature } from '../../../sdk/src';
import { DailyQuota } from '../../../src/access/daily-quota';
import { familyOfPath } from '../../../src/http/envelope/family';
import { RouteRegistry, RouteInfo } from '../../../src/http/route-registry';
import { INTERFACE_NAMES } from '../../../src/platform/interface-names';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { openConnectInEveryMode } from '../../support/connect';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The input boundary, kept true by generated bad input: for every route of the route
 * registry, requests that each carry at least one thing the boundary refuses (a control character
 * or unpaired surrogate, a broken encoding, a wrong content type, nesting too deep, a field name
 * that reaches object internals, an oversized body) plus random noise fields of wrong types, sent
 * through the real HTTP stack. Every answer must be a 4xx in the route family's envelope with a
 * request id, change no row of any table and no quota counter, and leave the next request healthy.
 *
 * CI runs a fixed seed; `npm run fuzz` runs longer (FUZZ_RUNS, FUZZ_SEED) and prints its figures.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

const FIELDS = [
  'app',
  'kami',
  'imei',
  'user_key',
  'serial',
  'nonce',
  'card_key',
  'machine_id',
  'username',
  'password',
  'name',
  'note',
  'content',
  'title',
  'version',
  'domain',
  'value',
  'status',
  'api',
  'data',
  'token',
  'count',
  'duration_seconds',
];
const BAD_CHARS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f', '\u0085', '\u009f', '\ud800', '\udfff'];
const BROKEN_ESCAPES = ['%FF', '%C3', '%ED%A0%80', '%E2%82', '%C0%AF'];
const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'application/octet-stream',
  'application/json',
  'application/x-www-form-urlencoded',
];

type BodyType = 'json' | 'form' | 'multipart';
type Violation =
  | { kind: 'bad-char'; field: string; char: string; at: 'body' | 'query' | 'path' }
  | { kind: 'broken-encoding'; field: string; escape: string; at: 'body' | 'query' }
  | { kind: 'wrong-content-type'; type: string }
  | { kind: 'too-deep'; depth: number }
  | { kind: 'internal-key'; key: '__proto__' | 'constructor' | 'prototype' }
  | { kind: 'too-large' };

interface Probe {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

function bodyTypeOf(route: RouteInfo): BodyType {
  if (route.path.endsWith('/files') && route.method === 'POST') return 'multipart';
  const family = familyOfPath(route.path);
  return family === 'connect' || family === 'legacy' || route.path.startsWith('/api/legacy/v3') ? 'form' : 'json';
}

const violationArb: fc.Arbitrary<Violation> = fc.oneof(
  fc.record({
    kind: fc.constant('bad-char' as const),
    field: fc.constantFrom(...FIELDS),
    char: fc.constantFrom(...BAD_CHARS),
    at: fc.constantFrom('body' as const, 'query' as const, 'path' as const),
  }),
  fc.record({
    kind: fc.constant('broken-encoding' as const),
    field: fc.constantFrom(...FIELDS),
    escape: fc.constantFrom(...BROKEN_ESCAPES),
    at: fc.constantFrom('body' as const, 'query' as const),
  }),
  fc.record({ kind: fc.constant('wrong-content-type' as const), type: fc.constantFrom(...WRONG_TYPES) }),
  fc.record({ kind: fc.constant('too-deep' as const), depth: fc.integer({ min: 33, max: 5000 }) }),
  fc.record({
    kind: fc.constant('internal-key' as const),
    key: fc.constantFrom('__proto__' as const, 'constructor' as const, 'prototype' as const),
  }),
  fc.constant({ kind: 'too-large' as const }),
);

/** Fields a client could send, of the right or the wrong type: never enough on their own to be refused. */
const noiseArb = fc.dictionary(
  fc.oneof(
    fc.constantFrom(...FIELDS),
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => /^[a-z_]+$/.test(k)),
  ),
  fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.boolean(),
    fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
  ),
  { maxKeys: 5 },
);

describe('input boundary fuzz (e2e)', () => {
  let t: TestApp;
  let platformAdmin: AdminClient;
  let author: AdminClient;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;
  let routes: RouteInfo[];
  let fingerprintSql: string;
  const figures = { probes: 0, serverErrors: 0, stateChanges: 0, byKind: {} as Record<string, number> };

  beforeAll(async () => {
    t = await startTestApp();
    platformAdmin = await AdminClient.asPlatformAdmin(t);
    author = (await platformAdmin.createAuthor()).client;
    project = await author.createProject();
    await openConnectInEveryMode(t, project.id);
    for (const name of INTERFACE_NAMES) {
      await platformAdmin
        .put(`/admin/v1/projects/${project.id}/interfaces/${name}`, { authorized: true, daily_quota: 100000 })
        .expect(200);
    }
    await insertCard(t, project.id, { status: 'active', activatedAt: new Date(), expiresAt: new Date(Date.now() + 86400_000) });
    routes = t.app
      .get(RouteRegistry)
      .list()
      .filter((r) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    const tables: Array<{ table_name: string }> = await t.app
      .get(DataSource)
      .query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY 1`,
      );
    // One statement: a digest of every row of every table.
    fingerprintSql = `SELECT ${tables.map(({ table_name: n }) => `(SELECT md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) FROM "${n}" x) AS "${n}"`).join(', ')}`;
  });

  afterAll(async () => {
    process.stdout.write(
      `fuzz: ${figures.probes} probes tried, ${figures.serverErrors} 5xx seen, ${figures.stateChanges} state changes seen (seed ${SEED}) ${JSON.stringify(figures.byKind)}\n`,
    );
    await t.close();
  });

  async function state(): Promise<unknown> {
    const [tables] = await t.app.get(DataSource).query(fingerprintSql);
    const quota = t.app.get(DailyQuota);
    const quotas = await Promise.all(INTERFACE_NAMES.map((name) => quota.used(`${project.id}:${name}`)));
    return { tables, quotas };
  }

  function pathOf(route: RouteInfo, violation: Violation): string {
    const inPath = violation.kind === 'bad-char' && violation.at === 'path';
    let first = true;
    return route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
      if (inPath && first) {
        first = false;
        return formValue(`x${violation.char}`);
      }
      if (name === 'id') return project.id;
      if (name === 'programId') return project.program_id;
      return '1';
    });
  }

  function encodeForm(fields: Record<string, unknown>): string {
    return Object.entries(fields)
      .map(([k, v]) => `${encodeURIComponent(k)}=${typeof v === 'string' ? formValue(v) : encodeURIComponent(JSON.stringify(v))}`)
      .join('&');
  }
  /** encodeURIComponent refuses unpaired surrogates; send their (invalid) UTF-8 bytes instead. */
  function formValue(value: string): string {
    return [...value].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
  }

  function buildProbe(route: RouteInfo, violation: Violation, noise: Record<string, unknown>): Probe {
    const expected = bodyTypeOf(route);
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
    let query = '';
    let fields: Record<string, unknown> = { ...noise };
    let rawBody: string | Buffer | undefined;
    let contentType =
      expected === 'json'
        ? 'application/json'
        : expected === 'form'
          ? 'application/x-www-form-urlencoded'
          : 'multipart/form-data; boundary=x';

    switch (violation.kind) {
      case 'bad-char':
        if (violation.at === 'path' && route.path.includes('/:')) break; // pathOf puts it into the first parameter
        if (violation.at !== 'body' || !hasBody || expected === 'multipart')
          query = `${violation.field}=${formValue(`v${violation.char}`)}`;
        else if (violation.at === 'body') fields[violation.field] = `v${violation.char}v`;
        break;
      case 'broken-encoding':
        if (violation.at === 'body' && hasBody && expected === 'form')
          rawBody = `${encodeForm(fields)}&${violation.field}=a${violation.escape}`;
        else if (violation.at === 'body' && hasBody && expected === 'json')
          rawBody = Buffer.concat([Buffer.from(`{"${violation.field}":"a`), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]);
        else query = `${violation.field}=a${violation.escape}`;
        break;
      case 'wrong-content-type':
        if (!hasBody) query = `q=${formValue('\u0000')}`;
        else if (violation.type.startsWith(contentType.split(';')[0]))
          contentType = expected === 'json' ? 'text/plain' : 'application/json';
        else contentType = violation.type;
        break;
      case 'too-deep':
        if (hasBody && expected === 'json') rawBody = `{"name":${'['.repeat(violation.depth)}${']'.repeat(violation.depth)}}`;
        else query = `q=${formValue('\u0000')}`;
        break;
      case 'internal-key':
        if (hasBody && expected === 'json') rawBody = `{"${violation.key}":{"polluted":true},"name":"x"}`;
        else query = `q=${formValue('\u0007')}`;
        break;
      case 'too-large':
        if (hasBody && expected !== 'multipart') fields = { ...fields, note: 'x'.repeat(1024 * 1024 + 16) };
        else query = `q=${formValue('\u0000')}`;
        break;
    }
    if (hasBody && rawBody === undefined)
      rawBody = contentType.startsWith('application/json') ? JSON.stringify(fields) : encodeForm(fields);
    const path = pathOf(route, violation);
    const headers: Record<string, string> = { 'X-Request-Id': `fuzz-${figures.probes}-${Date.now()}` };
    if (hasBody) headers['Content-Type'] = contentType;
    if (route.auth === 'admin-bearer') {
      const admin = /^\/admin\/v1\/(platform|authors)/.test(route.path) ? platformAdmin : author;
      headers.Authorization = admin.auth().Authorization;
    }
    if (route.auth === 'session-bearer') headers.Authorization = `Bearer ${'s'.repeat(43)}`;
    if (route.auth === 'hmac' && rawBody !== undefined) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = `fuzz${figures.probes}n${Date.now()}`;
      const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('latin1');
      Object.assign(headers, {
        'X-Svc-Timestamp': timestamp,
        'X-Svc-Nonce': nonce,
        'X-Svc-Signature': hmacSignature(project.api_secret, { method: route.method, path, timestamp, nonce, body }),
      });
    }
    return { method: route.method, url: query ? `${path}?${query}` : path, headers, body: rawBody };
  }

  async function send(probe: Probe): Promise<Response> {
    const agent = t.http();
    let req = (agent as unknown as Record<string, (url: string) => ReturnType<typeof agent.get>>)[probe.method.toLowerCase()](
      probe.url,
    );
    for (const [name, value] of Object.entries(probe.headers)) req = req.set(name, value);
    if (probe.body === undefined) return req;
    // Raw bytes as they are: superagent would otherwise serialise a Buffer as JSON.
    return typeof probe.body === 'string'
      ? req.send(probe.body)
      : req.serialize((bytes: Buffer) => bytes as unknown as string).send(probe.body);
  }

  function envelopeProblem(res: Response, path: string): string | null {
    const requestId = res.headers['x-request-id'];
    if (typeof requestId !== 'string' || !requestId) return 'no X-Request-Id header';
    const body = res.body ?? {};
    if (body.request_id !== requestId) return `request_id ${body.request_id} is not the header's ${requestId}`;
    switch (familyOfPath(path)) {
      case 'connect':
        return body.status === false && body.code < 0 && typeof body.reason === 'string' ? null : 'not a Connect failure';
      case 'standard':
        return body.success === false && typeof body.code === 'number' && body.code > 1 && typeof body.msg === 'string'
          ? null
          : 'not a standard failure';
      case 'legacy':
        return typeof body.code === 'number' && body.code > 1 && typeof body.msg === 'string' ? null : 'not a legacy failure';
      case 'admin':
        return typeof body.error?.code === 'number' && typeof body.error?.message === 'string' ? null : 'not an admin error';
    }
  }

  it(
    `answers ${RUNS} generated bad requests over every route with a 4xx envelope, no state change and a healthy next request`,
    async () => {
      expect(routes.length).toBeGreaterThan(50);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), violationArb, noiseArb, async (route, violation, noise) => {
          const probe = buildProbe(route, violation, noise);
          const before = await state();
          const res = await send(probe);
          figures.probes += 1;
          figures.byKind[violation.kind] = (figures.byKind[violation.kind] ?? 0) + 1;
          if (res.status >= 500) figures.serverErrors += 1;
          const after = await state();
          if (JSON.stringify(after) !== JSON.stringify(before)) figures.stateChanges += 1;
          const where = `${probe.method} ${probe.url} (${violation.kind}) → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
          expect([where, res.status >= 400 && res.status < 500]).toEqual([where, true]);
          expect([where, envelopeProblem(res, route.path)]).toEqual([where, null]);
          expect([where, after]).toEqual([where, before]);
          await author.get(`/admin/v1/projects/${project.id}`).expect(200);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
    60_000 + RUNS * 500,
  );
});
