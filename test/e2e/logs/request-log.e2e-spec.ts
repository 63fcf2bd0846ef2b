import { insertCard, cardRepos } from '../../support/cards';
import { cardHeartbeat, CODES, sdkLogin, v3Login } from '../../support/standard';
import { buildWorld, World } from '../../support/world';

/**
 * The request log (decisions §22): every client request of a project, refusals too, found by its
 * request id and explained in words an author can act on; filters and tenancy.
 */
let world: World;

const requestsPath = () => `/admin/v1/projects/${world.project.id}/requests`;

/** The request's entry with its explain; rows other than a card login's are written after the answer, so wait for it. */
async function explained(requestId: string, projectId = world.project.id) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await world.author.get(`/admin/v1/projects/${projectId}/requests/${requestId}`);
    if (res.status === 200) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`request ${requestId} never reached the log`);
}

const login = (key: string, machine: string) =>
  sdkLogin(world.t, world.project.api_secret, { app: world.project.program_id, card_key: key, machine_id: machine });

describe('request log (e2e)', () => {
  beforeAll(async () => {
    world = await buildWorld();
  });
  afterAll(() => world?.close());

  it('finds a banned card refused by its request id and says so', async () => {
    const card = await insertCard(world.t, world.project.id, { status: 'banned' });
    const res = await login(card.code, 'pc-1');
    expect(res.body.code).toBe(CODES.CARD_BANNED);
    const entry = await explained(res.headers['x-request-id']);
    expect(entry).toMatchObject({
      request_id: res.headers['x-request-id'],
      family: 'sdk',
      interface: 'card_login',
      result_code: CODES.CARD_BANNED,
      card_id: card.id,
      machine_code: 'pc-1',
    });
    expect(entry.explain).toContain(`The card ${card.code} was banned`);
    // No ban in the audit trail (the card was made banned): who and when stay unknown.
    expect(entry.explanation).toEqual({
      code: 'card_banned',
      params: { card_code: card.code, banned_at: null, banned_by: null, still_banned: true },
    });
  });

  it('names who banned the card and when, from the audit trail, by its own change and by a bulk ban', async () => {
    const single = await insertCard(world.t, world.project.id);
    const viaBulk = await insertCard(world.t, world.project.id);
    expect(
      (await world.author.patch(`/admin/v1/projects/${world.project.id}/cards/${single.id}`, { status: 'banned' })).status,
    ).toBe(200);
    expect(
      (await world.author.post(`/admin/v1/projects/${world.project.id}/cards/bulk`, { action: 'ban', ids: [viaBulk.id] })).status,
    ).toBe(200);
    for (const card of [single, viaBulk]) {
      const res = await login(card.code, 'pc-ban');
      const entry = await explained(res.headers['x-request-id']);
      expect(entry.explanation).toEqual({
        code: 'card_banned',
        params: {
          card_code: card.code,
          banned_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
          banned_by: world.authorAccount.username,
          still_banned: true,
        },
      });
      expect(entry.explain).toMatch(
        new RegExp(`^The card ${card.code} was banned on \\S+ by ${world.authorAccount.username} and still is`),
      );
    }
    await world.author.patch(`/admin/v1/projects/${world.project.id}/cards/${single.id}`, { status: 'active' });
    const after = await login(single.code, 'pc-ban');
    expect(after.body.code).toBe(0);
  });

  it("names no platform admin to an author: a platform admin's ban is 'by platform admin' to the author, by name to a platform admin", async () => {
    const card = await insertCard(world.t, world.project.id);
    await world.admin.patch(`/admin/v1/projects/${world.project.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
    const requestId = (await login(card.code, 'pc-admin-ban')).headers['x-request-id'];
    const toAuthor = await explained(requestId);
    expect(toAuthor.explanation.params.banned_by).toBe('platform admin');
    expect(toAuthor.explain).toMatch(/ by platform admin and still is/);
    const toAdmin = (await world.admin.get(`/admin/v1/projects/${world.project.id}/requests/${requestId}`).expect(200)).body;
    expect(toAdmin.explanation.params.banned_by).toBe('admin');
  });

  it('explains an expired card with its expiry, and a device limit with the bound device', async () => {
    const expiresAt = new Date(Date.now() - 3_600_000);
    const expired = await insertCard(world.t, world.project.id, {
      status: 'active',
      activatedAt: new Date(Date.now() - 86_400_000),
      expiresAt,
    });
    await cardRepos(world.t).devices.insert({
      cardId: expired.id,
      machineCode: 'pc-x',
      boundAt: new Date(Date.now() - 86_400_000),
    });
    const refused = await login(expired.code, 'pc-x');
    const expiredEntry = await explained(refused.headers['x-request-id']);
    expect(expiredEntry.explain).toContain(`expired on ${expiresAt.toISOString().replace('.000Z', 'Z')}`);
    expect(expiredEntry.explanation).toEqual({
      code: 'card_expired',
      params: { card_code: expired.code, expires_at: expect.any(String), extended: false },
    });

    const card = await insertCard(world.t, world.project.id, { deviceLimit: 1 });
    expect((await login(card.code, 'PC-A')).body.code).toBe(0);
    const second = await login(card.code, 'PC-B');
    expect(second.body.code).toBe(CODES.DEVICE_LIMIT_REACHED);
    const entry = await explained(second.headers['x-request-id']);
    expect(entry.explain).toMatch(/^Device limit 1 reached: bound to PC-A since \d{4}-\d\d-\d\dT/);
    expect(entry.explanation).toEqual({
      code: 'device_limit',
      params: {
        card_code: card.code,
        device_limit: 1,
        devices: [{ machine_code: 'PC-A', bound_at: expect.any(String) }],
        machine_code: 'PC-B',
      },
    });
  });

  it('explains a wrong key: an unknown card key and a signature made with the wrong secret', async () => {
    const unknown = await login('NO-SUCH-KEY-1', 'pc');
    expect((await explained(unknown.headers['x-request-id'])).explain).toContain(
      'No card of this project has the key "NO-SUCH-KEY-1"',
    );
    const forged = await v3Login(world.t, 'not-the-secret', { app: world.project.program_id, kami: 'ANY', imei: 'pc' });
    expect(forged.body.code).toBe(CODES.SIGNATURE_INVALID);
    const entry = await explained(forged.headers['x-request-id']);
    expect(entry).toMatchObject({ family: 'v3', route: '/api/legacy/v3/cards/login', result_code: CODES.SIGNATURE_INVALID });
    expect(entry.explain).toContain('wrong key or secret');
  });

  it('explains a blacklisted device by its entry and note', async () => {
    const entry = await world.author.post(`/admin/v1/projects/${world.project.id}/login-blacklist`, {
      kind: 'device',
      value: 'banned-pc',
      note: 'chargeback',
    });
    const card = await insertCard(world.t, world.project.id);
    const res = await login(card.code, 'banned-pc');
    expect(res.body.code).toBe(CODES.BLACKLISTED);
    const explainedEntry = await explained(res.headers['x-request-id']);
    expect(explainedEntry.explain).toContain(`device banned-pc is on the login blacklist (entry ${entry.body.id}`);
    expect(explainedEntry.explain).toContain('"chargeback"');
    expect(explainedEntry.explanation).toMatchObject({
      code: 'blacklisted',
      params: { kind: 'device', value: 'banned-pc', entry_id: entry.body.id, note: 'chargeback', expires_at: null },
    });
    await world.author.delete(`/admin/v1/projects/${world.project.id}/login-blacklist/${entry.body.id}`);
  });

  it('records heartbeats with their route, duration and card, and filters by card, device, result, family and time', async () => {
    const card = await insertCard(world.t, world.project.id);
    const ok = await login(card.code, 'hb-pc');
    const beat = await cardHeartbeat(world.t, ok.body.data.session_token, 'hb-pc');
    expect(beat.status).toBe(200);
    const entry = await explained(beat.headers['x-request-id']);
    expect(entry).toMatchObject({
      family: 'sdk',
      interface: 'card_heartbeat',
      route: '/api/v1/cards/heartbeat',
      result_code: 0,
      machine_code: 'hb-pc',
      card_id: card.id,
      explain: 'Accepted (card_heartbeat).',
    });
    expect(entry.explanation).toEqual({ code: 'accepted', params: { interface: 'card_heartbeat' } });
    expect(entry.duration_ms).toBeGreaterThanOrEqual(0);

    // By the card's key or id: its login and its heartbeat (whose row carries the session's card id only).
    const byCard = await world.author.get(`${requestsPath()}?card=${card.code}`);
    expect(byCard.body.items.map((item: { request_id: string }) => item.request_id)).toEqual([
      beat.headers['x-request-id'],
      ok.headers['x-request-id'],
    ]);
    expect((await world.author.get(`${requestsPath()}?card=${card.id}`)).body.total).toBe(2);
    const byDevice = await world.author.get(`${requestsPath()}?machine_code=hb-pc`);
    expect(byDevice.body.items.map((item: { request_id: string }) => item.request_id).sort()).toEqual(
      [ok.headers['x-request-id'], beat.headers['x-request-id']].sort(),
    );
    const banned = await world.author.get(`${requestsPath()}?result_code=${CODES.CARD_BANNED}&family=sdk`);
    expect(banned.body.items.every((item: { result_code: number }) => item.result_code === CODES.CARD_BANNED)).toBe(true);
    expect(banned.body.total).toBeGreaterThanOrEqual(1);
    expect((await world.author.get(`${requestsPath()}?family=connect`)).body.total).toBe(0);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await world.author.get(`${requestsPath()}?from=${encodeURIComponent(future)}`)).body.total).toBe(0);
    expect((await world.author.get(`${requestsPath()}?to=${encodeURIComponent(future)}&machine_code=hb-pc`)).body.total).toBe(2);
    expect((await world.author.get(`${requestsPath()}?from=yesterday`)).status).toBe(400);
  });

  it('writes a refused heartbeat like an accepted one: card_heartbeat and its card, whatever refused it', async () => {
    const card = await insertCard(world.t, world.project.id);
    const ok = await login(card.code, 'hb-refused');
    expect(ok.body.code).toBe(0);
    const token = ok.body.data.session_token as string;
    // Another machine with the session's token, then the card banned (which ends its sessions), twice.
    const mismatch = await cardHeartbeat(world.t, token, 'hb-other');
    expect(mismatch.body.code).toBe(CODES.MACHINE_MISMATCH);
    await world.author.patch(`/admin/v1/projects/${world.project.id}/cards/${card.id}`, { status: 'banned' }).expect(200);
    const banned = await cardHeartbeat(world.t, token, 'hb-refused');
    expect(banned.body.code).not.toBe(0);
    const ended = await cardHeartbeat(world.t, token, 'hb-refused');
    expect(ended.body.code).not.toBe(0);
    for (const res of [mismatch, banned, ended]) {
      const entry = await explained(res.headers['x-request-id']);
      expect(entry).toMatchObject({ interface: 'card_heartbeat', card_id: card.id, family: 'sdk', result_code: res.body.code });
    }
    // Its card's timeline holds the refused beats beside the login.
    const byCard = await world.author.get(`${requestsPath()}?card=${card.id}`);
    expect(byCard.body.items.filter((item: { interface: string }) => item.interface === 'card_heartbeat')).toHaveLength(3);
  });

  it('keeps the login log and statistics to card logins: a heartbeat and a forged request are in the request log only', async () => {
    const project = await world.author.createProject();
    const logins = (key: string) =>
      sdkLogin(world.t, project.api_secret, { app: project.program_id, card_key: key, machine_id: 'pc-stats' });
    const card = await insertCard(world.t, project.id);
    const ok = await logins(card.code);
    expect(ok.body.code).toBe(0);
    const beat = await cardHeartbeat(world.t, ok.body.data.session_token, 'pc-stats');
    const forged = await v3Login(world.t, 'not-the-secret', { app: project.program_id, kami: card.code, imei: 'pc-stats' });
    await explained(beat.headers['x-request-id'], project.id);
    await explained(forged.headers['x-request-id'], project.id);

    const requests = await world.author.get(`/admin/v1/projects/${project.id}/requests`);
    expect(requests.body.total).toBe(3);
    const logs = await world.author.get(`/admin/v1/projects/${project.id}/logs`);
    expect(logs.body.items.map((item: { request_id: string }) => item.request_id)).toEqual([ok.headers['x-request-id']]);
    expect(logs.body.total).toBe(1);
    const stats = await world.author.get(`/admin/v1/projects/${project.id}/stats`);
    expect(stats.body.items).toEqual([expect.objectContaining({ interface: 'card_login', result_code: 0, count: 1 })]);
  });

  it("keeps an author to their own projects' requests", async () => {
    const card = await insertCard(world.t, world.project.id);
    const res = await login(card.code, 'pc');
    await explained(res.headers['x-request-id']);
    const intruder = await world.admin.createAuthor();
    const theirs = await intruder.client.createProject();
    expect((await intruder.client.get(`${requestsPath()}/${res.headers['x-request-id']}`)).body.error.code).toBe(
      CODES.PROJECT_NOT_FOUND,
    );
    expect((await intruder.client.get(`/admin/v1/projects/${theirs.id}/requests/${res.headers['x-request-id']}`)).status).toBe(
      404,
    );
    expect(
      (await intruder.client.get(`/admin/v1/projects/${theirs.id}/requests?request_id=${res.headers['x-request-id']}`)).body
        .total,
    ).toBe(0);
  });
});

describe('request log switched off (REQUEST_LOG=off, e2e)', () => {
  let quiet: World;
  beforeAll(async () => {
    quiet = await buildWorld({ env: { REQUEST_LOG: 'off' } });
  });
  afterAll(() => quiet?.close());

  it('keeps no row of a heartbeat, while card logins stay in the login log', async () => {
    const card = await insertCard(quiet.t, quiet.project.id);
    const ok = await sdkLogin(quiet.t, quiet.project.api_secret, {
      app: quiet.project.program_id,
      card_key: card.code,
      machine_id: 'off-pc',
    });
    expect(ok.body.code).toBe(0);
    const beat = await cardHeartbeat(quiet.t, ok.body.data.session_token, 'off-pc');
    expect(beat.body.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500)); // longer than a batch waits
    const requests = await quiet.author.get(`/admin/v1/projects/${quiet.project.id}/requests`).expect(200);
    expect(requests.body.items.map((item: { request_id: string }) => item.request_id)).toEqual([ok.headers['x-request-id']]);
  });
});
