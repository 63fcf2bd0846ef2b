import { IsNull } from 'typeorm';
import { Client, ErrorCode } from '../../../sdk/src';
import { FRAMEWORK_START_CONTEXTS } from '../../../src/core/logging/json-logger';
import { cardRepos } from '../../support/cards';
import { sessionRepo, V3_LOGIN } from '../../support/standard';
import { signedPost } from '../../support/signing';
import { startTestApp, unique } from '../../support/test-app';
import { buildWorld, World } from '../../support/world';
import { MetricSample as Series, parseMetrics } from '../../support/metrics';

/** The value of the series with exactly these labels; undefined when it does not exist. */
function valueOf(all: Series[], name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return all.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted)?.value;
}

/** Every series of `name` as `label values → value`, to compare a whole metric at once. */
function seriesOf(all: Series[], name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of all.filter((x) => x.name === name)) out[Object.values(s.labels).join(',')] = s.value;
  return out;
}

const accessLines = (logs: string[]) => logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');

/**
 * The operator's view through the real HTTP stack: after card logins of every family (successes,
 * a wrong card, nonce replays, a quota refusal) /metrics shows the business series with the right
 * labels and counts, refusals answered 200 count as outcome="refused", and every request gives one
 * access-log line with its route pattern and code, never a card key or a secret.
 */
describe('operator view: business metrics and access log (e2e)', () => {
  let world: World;
  let client: Client;
  let metrics: Series[];
  const requestIds: Record<string, string | undefined> = {};
  const WRONG_KEY = 'NO-SUCH-CARD-KEY-0001';

  beforeAll(async () => {
    world = await buildWorld({ connect: true, cards: 3 });
    const { t, project, cards } = world;
    client = new Client({
      baseUrl: await t.baseUrl(),
      programId: project.program_id,
      apiSecret: project.api_secret,
      legacySecret: project.legacy_secret,
      retries: 0,
    });

    // SDK: first use (locked path), then again from the same device (one-statement path).
    expect((await client.cardLogin({ cardKey: cards[0].code, machineId: 'sdk-pc' })).code).toBe(0);
    expect((await client.cardLogin({ cardKey: cards[0].code, machineId: 'sdk-pc' })).code).toBe(0);
    // V3: a card that does not exist, refused with HTTP 200.
    const refused = await client.v3CardLogin({ cardKey: WRONG_KEY, machineId: 'v3-pc' });
    expect({ success: refused.success, code: refused.code, http: refused.httpStatus }).toEqual({
      success: false,
      code: ErrorCode.CARD_INVALID,
      http: 200,
    });
    requestIds.refused = refused.requestId;
    // Connect: a login, then the same nonce again.
    const nonce = unique('nonce');
    expect((await client.connectLogin({ cardKey: cards[1].code, serial: 'connect-pc', nonce })).code).toBe(1);
    const replay = await client.connectLogin({ cardKey: cards[1].code, serial: 'connect-pc', nonce });
    expect({ code: replay.code, http: replay.httpStatus }).toEqual({ code: ErrorCode.NONCE_REPLAYED, http: 409 });
    requestIds.connectReplay = replay.requestId;
    // V3 with HMAC headers: a login, then the same signed nonce again.
    const hmacNonce = unique('hmacnonce');
    const form = { app: project.program_id, kami: cards[2].code, imei: 'hmac-pc' };
    expect((await signedPost(t, V3_LOGIN, form, 'form', project.api_secret, { nonce: hmacNonce })).body.code).toBe(0);
    expect((await signedPost(t, V3_LOGIN, form, 'form', project.api_secret, { nonce: hmacNonce })).body.code).toBe(
      ErrorCode.NONCE_REPLAYED,
    );
    // Legacy: the card Connect bound, from the same device (one-statement path).
    expect((await client.legacy.cardLogin({ cardKey: cards[1].code, machineId: 'connect-pc' })).code).toBe(1);
    // A legacy GET route carries the card key in its query string.
    const paycheck = await t.http().get(`/api/paycheck?app=${project.program_id}&kami=${cards[1].code}`).expect(200);
    requestIds.paycheck = paycheck.headers['x-request-id'];
    // A daily quota of 0: the next login is refused by the gate (its log row is written alone).
    await world.admin
      .put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: true, daily_quota: 0 })
      .expect(200);
    expect((await client.cardLogin({ cardKey: cards[0].code, machineId: 'sdk-pc' })).code).toBe(ErrorCode.QUOTA_EXCEEDED);

    metrics = parseMetrics((await t.http().get('/metrics').expect(200)).text);
  });
  afterAll(() => world.close());

  it('counts card logins by client family and answered code, one per login-log row', async () => {
    expect(seriesOf(metrics, 'card_logins_total')).toEqual({
      'sdk,0': 2,
      'v3,20001': 1,
      'connect,1': 1,
      'v3,0': 1,
      'legacy,1': 1,
      'sdk,10301': 1,
    });
    expect(await cardRepos(world.t).logs.countBy({ projectId: world.project.id })).toBe(7);
  });

  it('counts refusals by reason, quota refusals by interface, and nonce replays by check', () => {
    expect(seriesOf(metrics, 'refusals_total')).toEqual({
      'standard,CARD_INVALID': 1,
      'connect,NONCE_REPLAYED': 1,
      'standard,NONCE_REPLAYED': 1,
      'standard,QUOTA_EXCEEDED': 1,
    });
    expect(seriesOf(metrics, 'quota_refusals_total')).toEqual({ 'sdk,card_login': 1 });
    expect(seriesOf(metrics, 'nonce_replays_total')).toEqual({ connect: 1, hmac: 1 });
  });

  it('labels a refusal answered with HTTP 200 outcome="refused", not "ok"', () => {
    const standard = (outcome: string, status: string) =>
      valueOf(metrics, 'http_requests_total', { family: 'standard', method: 'POST', outcome, status });
    expect(standard('refused', '200')).toBe(1);
    // Two SDK logins and one V3 login succeeded.
    expect(standard('ok', '200')).toBe(3);
    expect(standard('rejected', '409')).toBe(1);
    expect(standard('rejected', '429')).toBe(1);
    expect(
      valueOf(metrics, 'http_requests_total', { family: 'connect', method: 'POST', outcome: 'rejected', status: '409' }),
    ).toBe(1);
  });

  it('times the login-log writes by path', () => {
    // Locked: the first SDK, Connect and V3 logins, and the wrong card; fast: the repeated SDK and the legacy login.
    expect(valueOf(metrics, 'login_log_write_duration_seconds_count', { path: 'locked' })).toBe(4);
    expect(valueOf(metrics, 'login_log_write_duration_seconds_count', { path: 'fast' })).toBe(2);
    expect(valueOf(metrics, 'login_log_write_duration_seconds_count', { path: 'refusal' })).toBe(1);
    expect(valueOf(metrics, 'login_log_write_duration_seconds_sum', { path: 'locked' })).toBeGreaterThan(0);
  });

  it('shows active sessions by type, database, pool and store health', async () => {
    const live = await sessionRepo(world.t).countBy({ projectId: world.project.id, type: 'card', revokedAt: IsNull() });
    expect(live).toBeGreaterThan(0);
    expect(valueOf(metrics, 'active_sessions', { type: 'card' })).toBe(live);
    expect(valueOf(metrics, 'active_sessions', { type: 'user' })).toBe(0);
    const database = world.t.env.DATABASE_URL ? 'postgresql' : 'embedded';
    expect(valueOf(metrics, 'database_up', { database })).toBe(1);
    expect(valueOf(metrics, 'database_pool_clients', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(metrics, 'database_pool_clients', { state: 'waiting' })).toBe(0);
    const store = world.t.env.REDIS_URL ? 'redis' : 'in_process';
    expect(valueOf(metrics, 'store_up', { store })).toBe(1);
    if (store === 'redis') expect(valueOf(metrics, 'redis_ping_seconds')).toBeGreaterThan(0);
    else expect(valueOf(metrics, 'redis_ping_seconds')).toBeUndefined();
  });

  it('writes one access-log line per request with route pattern, status, family and code', () => {
    const lines = accessLines(world.t.logs);
    const line = (id: string | undefined) => lines.filter((l) => l.request_id === id);
    expect(line(requestIds.refused)).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        msg: 'request',
        request_id: requestIds.refused,
        method: 'POST',
        route: V3_LOGIN,
        status: 200,
        duration_ms: expect.any(Number),
        family: 'standard',
        code: ErrorCode.CARD_INVALID,
      },
    ]);
    // Connect answers -10103; the log gives the catalog code, as the metrics do.
    expect(line(requestIds.connectReplay)).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        msg: 'request',
        request_id: requestIds.connectReplay,
        method: 'POST',
        route: '/connect/:programId',
        status: 409,
        duration_ms: expect.any(Number),
        family: 'connect',
        code: ErrorCode.NONCE_REPLAYED,
      },
    ]);
    expect(line(requestIds.paycheck)).toMatchObject([
      { method: 'GET', route: '/api/paycheck', status: 200, family: 'legacy', code: 1 },
    ]);
    expect(lines.every((l) => typeof l.duration_ms === 'number' && l.duration_ms >= 0)).toBe(true);
  });

  it('never writes a card key, a secret or a token in any log line', () => {
    const all = world.t.logs.join('\n');
    const { project, cards } = world;
    for (const secret of [
      WRONG_KEY,
      ...cards.map((c) => c.code),
      project.api_secret,
      project.legacy_secret,
      client.session?.token ?? 'no session',
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it("writes Nest's start-up lines at debug only, so none reach an info log", () => {
    const contexts = world.t.logs
      .map((line) => JSON.parse(line).context)
      .filter((context) => FRAMEWORK_START_CONTEXTS.has(context));
    expect(contexts).toEqual([]);
  });
});

describe('ACCESS_LOG=off (e2e)', () => {
  it('writes no access-log line but still counts the request', async () => {
    const t = await startTestApp({ ACCESS_LOG: 'off' });
    try {
      await t.http().get('/health/live').expect(200);
      const metrics = parseMetrics((await t.http().get('/metrics').expect(200)).text);
      expect(valueOf(metrics, 'http_requests_total', { family: 'ops', method: 'GET', outcome: 'ok', status: '200' })).toBe(1);
      expect(accessLines(t.logs)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
