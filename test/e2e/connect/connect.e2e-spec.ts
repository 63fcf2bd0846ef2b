import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import {
  connectLogin,
  expectConnectFailure,
  expectOneLogRow,
  logRowsOf,
  openConnectInEveryMode,
  TIMESTAMP,
  unusedProgramId,
} from '../../support/connect';
import { wallClock } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';
import { buildWorld } from '../../support/world';
import { AppConfig } from '../../../src/config/app-config';
import { CardLoginService } from '../../../src/cards/card-login.service';
import { SharedStore } from '../../../src/core/store/shared-store';
import { Card } from '../../../src/cards/card.entity';
import { DataSource } from 'typeorm';
import { ErrorCode } from '../../../sdk/src';

/** Catalog codes (decisions §2); Connect shows their negatives. */
const { BAD_REQUEST, NONCE_REPLAYED, PROGRAM_NOT_FOUND, CARD_INVALID } = ErrorCode;
const SUCCESS = 0;

describe('Connect card login (e2e)', () => {
  let t: TestApp;
  let author: AdminClient;
  let project: Awaited<ReturnType<AdminClient['createProject']>>;
  let timeZone: string;

  const connect = (body: Record<string, string>, programId = project.program_id, path: 'connect' | 'conncet' = 'connect') =>
    connectLogin(t, programId, body, path);
  const reload = (card: Card) => cardRepos(t).cards.findOneByOrFail({ id: card.id });
  const devicesOf = (card: Card) => cardRepos(t).devices.findBy({ cardId: card.id });
  const projectLogCount = (projectId = project.id) => cardRepos(t).logs.countBy({ projectId });

  /** The card's state a refused login must leave untouched. */
  async function snapshot(card: Card) {
    const { status, activatedAt, expiresAt, useCount, lastLoginAt } = await reload(card);
    const devices = (await devicesOf(card)).map((d) => d.machineCode).sort();
    return { status, activatedAt, expiresAt, useCount, lastLoginAt, devices };
  }

  beforeAll(async () => {
    ({ t, author, project } = await buildWorld({ connect: true }));
    timeZone = t.app.get(AppConfig).APP_TIMEZONE;
  });
  afterAll(() => t.close());

  it('logs a card in with the exact Connect success body, on both spellings of the path', async () => {
    const card = await insertCard(t, project.id, { durationSeconds: 3600, deviceLimit: 2 });
    for (const path of ['connect', 'conncet'] as const) {
      const res = await connect({ user_key: card.code, serial: 'device-1' }, project.program_id, path).expect(200);
      expect(res.body).toEqual({
        status: true,
        code: 1,
        reason: expect.any(String),
        data: {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          expires_at: expect.stringMatching(TIMESTAMP),
          expires_at_iso: expect.any(String),
          device_limit: 2,
          server_time: expect.any(Number),
          machine_code: 'device-1',
          announcement: '',
          features: [],
          trial: false,
        },
        request_id: res.headers['x-request-id'],
      });
      expect(Math.abs(res.body.data.server_time - Date.now() / 1000)).toBeLessThan(5);
    }
    const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
    expect(stored.status).toBe('active');
    expect(stored.useCount).toBe(2);
    expect(stored.expiresAt!.getTime() - stored.activatedAt!.getTime()).toBe(3600_000);
  });

  it('refuses an unknown card with HTTP 200 and a negative code', async () => {
    const res = await connect({ user_key: 'NO-SUCH-CARD', serial: 'd' }).expect(200);
    expect(res.body).toEqual({
      status: false,
      code: -20001,
      reason: expect.any(String),
      request_id: res.headers['x-request-id'],
    });
  });

  it('binds exactly device_limit devices when 20 new devices race on a 2-device card', async () => {
    const card = await insertCard(t, project.id, { deviceLimit: 2 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => connect({ user_key: card.code, serial: `race-${i}` })),
    );
    expect(results.filter((r) => r.body.status === true)).toHaveLength(2);
    expect(results.filter((r) => r.body.code === -20004)).toHaveLength(18);
    expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(2);
  });

  it('answers exactly one of 20 concurrent requests with one nonce, the rest 409', async () => {
    const card = await insertCard(t, project.id, { deviceLimit: 1 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => connect({ user_key: card.code, serial: 'n-dev', nonce: 'nonce-race-1' })),
    );
    expect(results.filter((r) => r.status === 200 && r.body.status === true)).toHaveLength(1);
    const replays = results.filter((r) => r.status === 409);
    expect(replays).toHaveLength(19);
    expect(replays[0].body).toMatchObject({ status: false, code: -10103 });
  });

  describe('success body and first use', () => {
    it('carries the token only inside data, never at the top level, and nothing beyond the spec fields', async () => {
      const card = await insertCard(t, project.id);
      const res = await connect({ user_key: card.code, serial: 'top-level' }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'reason', 'request_id', 'status']);
      expect(Object.keys(res.body.data).sort()).toEqual([
        'announcement',
        'device_limit',
        'expires_at',
        'expires_at_iso',
        'features',
        'machine_code',
        'server_time',
        'token',
        'trial',
      ]);
      expect(res.body).not.toHaveProperty('token');
      expect(res.body.status).toBe(true);
      expect(res.body.code).toBe(1);
    });

    it('answers server_time as whole Unix seconds of the answer', async () => {
      const card = await insertCard(t, project.id);
      const before = Math.floor(Date.now() / 1000);
      const res = await connect({ user_key: card.code, serial: 'clock' }).expect(200);
      const after = Math.ceil(Date.now() / 1000);
      expect(Number.isInteger(res.body.data.server_time)).toBe(true);
      expect(res.body.data.server_time).toBeGreaterThanOrEqual(before);
      expect(res.body.data.server_time).toBeLessThanOrEqual(after);
    });

    it('echoes the submitted serial as machine_code and the card device limit as device_limit', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 7 });
      const serial = 'Serial-With.Mixed:Case_and-Symbols';
      const res = await connect({ user_key: card.code, serial }).expect(200);
      expect(res.body.data).toMatchObject({ machine_code: serial, device_limit: 7 });
      expect((await devicesOf(card)).map((d) => d.machineCode)).toEqual([serial]);
    });

    it('activates a card on first use: status active, expires_at = activated_at + duration, shown in the service time zone', async () => {
      const card = await insertCard(t, project.id, { durationSeconds: 7 * 86400 });
      expect(card.status).toBe('unused');
      const res = await connect({ user_key: card.code, serial: 'first-use' }).expect(200);
      const stored = await reload(card);
      expect(stored.status).toBe('active');
      expect(stored.activatedAt).not.toBeNull();
      expect(Math.abs(stored.activatedAt!.getTime() - res.body.data.server_time * 1000)).toBeLessThan(2000);
      expect(stored.expiresAt!.getTime() - stored.activatedAt!.getTime()).toBe(7 * 86400 * 1000);
      expect(res.body.data.expires_at).toBe(wallClock(stored.expiresAt!, timeZone));
      expect(stored.useCount).toBe(1);
      expect(stored.lastLoginAt).not.toBeNull();
    });

    it('shows a permanent card (duration 0) as expiring at 9999-12-31 23:59:59 and stores no expiry', async () => {
      const card = await insertCard(t, project.id, { durationSeconds: 0 });
      for (const serial of ['perm', 'perm']) {
        const res = await connect({ user_key: card.code, serial }).expect(200);
        expect(res.body.status).toBe(true);
        expect(res.body.data.expires_at).toBe('9999-12-31 23:59:59');
      }
      const stored = await reload(card);
      expect(stored.status).toBe('active');
      expect(stored.activatedAt).not.toBeNull();
      expect(stored.expiresAt).toBeNull();
    });

    it('does not move the expiry when an active card logs in again', async () => {
      const card = await insertCard(t, project.id, { durationSeconds: 3600 });
      const first = await connect({ user_key: card.code, serial: 'again' }).expect(200);
      const activated = await reload(card);
      await new Promise((r) => setTimeout(r, 1100));
      const second = await connect({ user_key: card.code, serial: 'again' }).expect(200);
      expect(second.body.data.expires_at).toBe(first.body.data.expires_at);
      const stored = await reload(card);
      expect(stored.expiresAt).toEqual(activated.expiresAt);
      expect(stored.activatedAt).toEqual(activated.activatedAt);
    });

    it('lets a bound device log in again freely, each time with a fresh token, without binding twice', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 1 });
      const tokens = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const res = await connect({ user_key: card.code, serial: 'same-device' }).expect(200);
        expect(res.body.status).toBe(true);
        tokens.add(res.body.data.token);
      }
      expect(tokens.size).toBe(3);
      expect((await devicesOf(card)).map((d) => d.machineCode)).toEqual(['same-device']);
    });
  });

  // Card refusals (unknown, expired, banned, device limit) as Connect renders them: card-refusals-by-family.e2e-spec.ts.

  describe('replays without a nonce (spec Connect rule 2)', () => {
    it('accepts the same user_key and serial again and again; each replay raises use_count and writes one more log row', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 1 });
      const requestIds: string[] = [];
      const REPLAYS = 6;
      for (let i = 1; i <= REPLAYS; i++) {
        const res = await connect({ user_key: card.code, serial: 'replayed' }).expect(200);
        expect(res.body.status).toBe(true);
        requestIds.push(res.body.request_id);
        expect((await reload(card)).useCount).toBe(i);
        expect(await cardRepos(t).logs.countBy({ cardId: card.id })).toBe(i);
      }
      expect(new Set(requestIds).size).toBe(REPLAYS);
      for (const requestId of requestIds) {
        const rows = await logRowsOf(t, requestId);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          projectId: project.id,
          cardId: card.id,
          cardCode: card.code,
          machineCode: 'replayed',
          family: 'connect',
          interface: 'card_login',
          resultCode: SUCCESS,
        });
      }
      expect(await devicesOf(card)).toHaveLength(1);
    });

    it('keeps logging in a bound device after a migration adds a column to cards while the service runs', async () => {
      // The repeat login is a prepared statement: its plan must survive a schema change of a
      // rolling deploy (another instance migrating) instead of failing until a reconnect.
      const card = await insertCard(t, project.id);
      await connect({ user_key: card.code, serial: 'prepared' }).expect(200);
      expect((await connect({ user_key: card.code, serial: 'prepared' }).expect(200)).body.status).toBe(true);
      const db = t.app.get(DataSource);
      const column = `added_by_test_${process.pid}`;
      await db.query(`ALTER TABLE cards ADD COLUMN ${column} integer`);
      try {
        const res = await connect({ user_key: card.code, serial: 'prepared' }).expect(200);
        expect(res.body.status).toBe(true);
        expect((await reload(card)).useCount).toBe(3);
      } finally {
        await db.query(`ALTER TABLE cards DROP COLUMN ${column}`);
      }
    });

    it('writes the incoming X-Request-Id into the log row and the body', async () => {
      const card = await insertCard(t, project.id);
      const requestId = `connect-req-${Date.now()}`;
      const res = await connect({ user_key: card.code, serial: 'rid' }).set('X-Request-Id', requestId).expect(200);
      expect(res.body.request_id).toBe(requestId);
      expect(res.headers['x-request-id']).toBe(requestId);
      await expectOneLogRow(t, res, SUCCESS, project.id);
    });

    it('records the caller IP in the log row', async () => {
      const card = await insertCard(t, project.id);
      const res = await connect({ user_key: card.code, serial: 'ip' }).expect(200);
      const [row] = await logRowsOf(t, res.body.request_id);
      expect(row.ip).toMatch(/127\.0\.0\.1|::1/);
    });
  });

  describe('nonce (spec Connect rule 1, Limits)', () => {
    it('answers a nonce repeated within 60 s with HTTP 409 -10103 and changes nothing', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 2 });
      const nonce = `rep-${Date.now()}`;
      expect((await connect({ user_key: card.code, serial: 'n1', nonce }).expect(200)).body.status).toBe(true);
      const before = await snapshot(card);
      const logsBefore = await projectLogCount();
      for (const serial of ['n1', 'n2']) {
        const res = await connect({ user_key: card.code, serial, nonce });
        expectConnectFailure(res, 409, -NONCE_REPLAYED);
      }
      expect(await snapshot(card)).toEqual(before);
      expect(await projectLogCount()).toBe(logsBefore);
    });

    it('remembers a nonce for 60 seconds, then accepts it again', async () => {
      const card = await insertCard(t, project.id);
      const nonce = `window-${Date.now()}`;
      const claim = jest.spyOn(t.app.get(SharedStore), 'claim');
      try {
        await connect({ user_key: card.code, serial: 'w', nonce }).expect(200);
        expect(claim).toHaveBeenCalledWith(expect.stringContaining(nonce), 60);
      } finally {
        claim.mockRestore();
      }
      if (process.env.REDIS_URL) return; // Redis keeps the clock; the in-process store reads Date.now.
      const realNow = Date.now.bind(Date);
      const clock = jest.spyOn(Date, 'now');
      try {
        clock.mockImplementation(() => realNow() + 59_000);
        expectConnectFailure(await connect({ user_key: card.code, serial: 'w', nonce }), 409, -NONCE_REPLAYED);
        clock.mockImplementation(() => realNow() + 61_000);
        expect((await connect({ user_key: card.code, serial: 'w', nonce }).expect(200)).body.status).toBe(true);
      } finally {
        clock.mockRestore();
      }
    });

    it('answers 409 to a repeated nonce even when the first attempt with it failed', async () => {
      const nonce = `failed-first-${Date.now()}`;
      expectConnectFailure(await connect({ user_key: 'NOT-A-CARD', serial: 'f', nonce }), 200, -CARD_INVALID);
      const card = await insertCard(t, project.id);
      expectConnectFailure(await connect({ user_key: card.code, serial: 'f', nonce }), 409, -NONCE_REPLAYED);
      expect((await reload(card)).useCount).toBe(0);
    });

    it('accepts the same nonce on another program', async () => {
      const other = await author.createProject();
      await openConnectInEveryMode(t, other.id);
      const nonce = `shared-${Date.now()}`;
      const mine = await insertCard(t, project.id);
      const theirs = await insertCard(t, other.id);
      expect((await connect({ user_key: mine.code, serial: 's', nonce }).expect(200)).body.status).toBe(true);
      expect((await connect({ user_key: theirs.code, serial: 's', nonce }, other.program_id).expect(200)).body.status).toBe(true);
    });

    it('treats /connect and /conncet of one program as one nonce space', async () => {
      const card = await insertCard(t, project.id);
      const nonce = `spellings-${Date.now()}`;
      await connect({ user_key: card.code, serial: 's', nonce }, project.program_id, 'connect').expect(200);
      expectConnectFailure(
        await connect({ user_key: card.code, serial: 's', nonce }, project.program_id, 'conncet'),
        409,
        -NONCE_REPLAYED,
      );
    });

    it('accepts different nonces on the same card and device', async () => {
      const card = await insertCard(t, project.id);
      for (const nonce of ['a1', 'a2', 'a3']) {
        expect(
          (await connect({ user_key: card.code, serial: 'multi', nonce: `${nonce}-${Date.now()}` }).expect(200)).body.status,
        ).toBe(true);
      }
      expect((await reload(card)).useCount).toBe(3);
    });

    it('accepts a nonce of exactly 96 characters using every allowed symbol', async () => {
      const card = await insertCard(t, project.id);
      const nonce = `_.:-${Date.now()}`.padEnd(96, 'aZ9');
      expect(nonce).toHaveLength(96);
      expect((await connect({ user_key: card.code, serial: 'len', nonce }).expect(200)).body.status).toBe(true);
    });

    it('accepts a one-character nonce', async () => {
      const other = await author.createProject();
      await openConnectInEveryMode(t, other.id);
      const card = await insertCard(t, other.id);
      expect((await connect({ user_key: card.code, serial: 'one', nonce: 'x' }, other.program_id).expect(200)).body.status).toBe(
        true,
      );
    });

    it.each([
      ['97 characters', 'n'.repeat(97)],
      ['an empty nonce', ''],
      ['a space', 'has space'],
      ['a slash', 'a/b'],
      ['a hash', 'a#b'],
      ['a plus', 'a+b'],
      ['a non-ASCII letter', 'nonçe'],
    ])('refuses a nonce with %s: HTTP 400 -10001, no log row, nothing bound', async (_label, nonce) => {
      const card = await insertCard(t, project.id);
      const logsBefore = await projectLogCount();
      const res = await connect({ user_key: card.code, serial: 'bad-nonce', nonce });
      expectConnectFailure(res, 400, -BAD_REQUEST);
      expect(await logRowsOf(t, res.body.request_id)).toEqual([]);
      expect(await projectLogCount()).toBe(logsBefore);
      expect(await snapshot(card)).toMatchObject({ status: 'unused', useCount: 0, devices: [] });
    });

    it('does not use up the nonce of a request refused as malformed', async () => {
      const card = await insertCard(t, project.id);
      const nonce = `malformed-first-${Date.now()}`;
      expectConnectFailure(await connect({ user_key: card.code, nonce }), 400, -BAD_REQUEST);
      expect((await connect({ user_key: card.code, serial: 'later', nonce }).expect(200)).body.status).toBe(true);
    });
  });

  describe('malformed requests (HTTP 400 -10001, no log row, nothing bound)', () => {
    it.each([
      ['user_key is missing', (_code: string) => ({ serial: 'dev' })],
      ['serial is missing', (code: string) => ({ user_key: code })],
      ['user_key is empty', (_code: string) => ({ user_key: '', serial: 'dev' })],
      ['serial is empty', (code: string) => ({ user_key: code, serial: '' })],
      ['user_key has 129 characters', (code: string) => ({ user_key: code.padEnd(129, 'X'), serial: 'dev' })],
      ['serial has 129 characters', (code: string) => ({ user_key: code, serial: 's'.repeat(129) })],
    ])('refuses a login where %s', async (_label, body) => {
      const card = await insertCard(t, project.id);
      const logsBefore = await projectLogCount();
      const res = await connect(body(card.code) as Record<string, string>);
      expectConnectFailure(res, 400, -BAD_REQUEST);
      expect(await logRowsOf(t, res.body.request_id)).toEqual([]);
      expect(await projectLogCount()).toBe(logsBefore);
      expect(await snapshot(card)).toMatchObject({ status: 'unused', useCount: 0, devices: [] });
    });

    it('accepts a serial of exactly 128 characters and binds it', async () => {
      const card = await insertCard(t, project.id);
      const serial = 's'.repeat(127) + 'Z';
      const res = await connect({ user_key: card.code, serial }).expect(200);
      expect(res.body.data.machine_code).toBe(serial);
      expect((await devicesOf(card)).map((d) => d.machineCode)).toEqual([serial]);
    });

    it('takes a 128-character user_key as a card key to look up (-20001), not as malformed', async () => {
      const res = await connect({ user_key: 'K'.repeat(128), serial: 'dev' });
      expectConnectFailure(res, 200, -CARD_INVALID);
      await expectOneLogRow(t, res, CARD_INVALID, project.id);
    });

    it('refuses a field sent twice', async () => {
      const card = await insertCard(t, project.id);
      const res = await t
        .http()
        .post(`/connect/${project.program_id}`)
        .type('form')
        .send(`user_key=${card.code}&user_key=${card.code}&serial=dev`);
      expectConnectFailure(res, 400, -BAD_REQUEST);
      expect((await reload(card)).useCount).toBe(0);
    });

    it('refuses a JSON body with a clear Connect failure, never a success (Connect is form-encoded)', async () => {
      const card = await insertCard(t, project.id);
      const logsBefore = await projectLogCount();
      const res = await t.http().post(`/connect/${project.program_id}`).send({ user_key: card.code, serial: 'json-dev' });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectConnectFailure(res, 415, -10007);
      expect(await projectLogCount()).toBe(logsBefore);
      expect(await snapshot(card)).toMatchObject({ status: 'unused', useCount: 0, devices: [] });
    });

    it('refuses a request without a body', async () => {
      const res = await t.http().post(`/connect/${project.program_id}`);
      expectConnectFailure(res, 415, -10007);
      expect(await logRowsOf(t, res.body.request_id)).toEqual([]);
    });

    it('refuses a plain-text body', async () => {
      const card = await insertCard(t, project.id);
      const res = await t
        .http()
        .post(`/connect/${project.program_id}`)
        .set('Content-Type', 'text/plain')
        .send(`user_key=${card.code}&serial=x`);
      expect(res.body.status).toBe(false);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect((await reload(card)).useCount).toBe(0);
    });

    it('accepts a form body whose content type names a charset', async () => {
      const card = await insertCard(t, project.id);
      const res = await t
        .http()
        .post(`/connect/${project.program_id}`)
        .set('Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8')
        .send(`user_key=${encodeURIComponent(card.code)}&serial=charset-dev`)
        .expect(200);
      expect(res.body.status).toBe(true);
    });
  });

  describe('platform faults and time zone', () => {
    it('answers a platform fault with HTTP 500, -50000 and an error_id found in the log line, never with internals', async () => {
      const card = await insertCard(t, project.id);
      const spy = jest
        .spyOn(t.app.get(CardLoginService), 'login')
        .mockRejectedValueOnce(new Error('database exploded: secret internals'));
      try {
        const res = await connect({ user_key: card.code, serial: 'fault' });
        expect({ http: res.status, body: res.body }).toStrictEqual({
          http: 500,
          body: {
            status: false,
            code: -50000,
            reason: expect.any(String),
            request_id: res.headers['x-request-id'],
            error_id: expect.any(String),
          },
        });
        expect(res.text).not.toContain('exploded');
        const line = t.logs.find((l) => l.includes(res.body.error_id));
        expect(line).toBeDefined();
        expect(line).toContain('database exploded');
      } finally {
        spy.mockRestore();
      }
      expect((await connect({ user_key: card.code, serial: 'fault' }).expect(200)).body.status).toBe(true);
    });

    it('shows expires_at in the service time zone (APP_TIMEZONE)', async () => {
      const tokyo = await startTestApp({ APP_TIMEZONE: 'Asia/Tokyo' });
      try {
        // Its own program: the second app has a database of its own.
        const owner = (await (await AdminClient.asPlatformAdmin(tokyo)).createAuthor()).client;
        const program = await owner.createProject();
        await openConnectInEveryMode(tokyo, program.id);
        const card = await insertCard(tokyo, program.id, { durationSeconds: 3600 });
        const res = await connectLogin(tokyo, program.program_id, { user_key: card.code, serial: 'tz' }).expect(200);
        const stored = await cardRepos(tokyo).cards.findOneByOrFail({ id: card.id });
        expect(res.body.data.expires_at).toBe(wallClock(stored.expiresAt!, 'Asia/Tokyo'));
        expect(res.body.data.expires_at).not.toBe(wallClock(stored.expiresAt!, 'UTC'));
        expect(Math.abs(res.body.data.server_time - Date.now() / 1000)).toBeLessThan(5);
      } finally {
        await tokyo.close();
      }
    });
  });

  describe('methods and program ids', () => {
    it('answers HEAD with 405 and Allow: POST, without logging anyone in', async () => {
      const card = await insertCard(t, project.id);
      const logsBefore = await projectLogCount();
      for (const path of ['connect', 'conncet']) {
        const res = await t.http().head(`/${path}/${project.program_id}?user_key=${card.code}&serial=head-dev`);
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('POST');
        expect(await logRowsOf(t, res.headers['x-request-id'])).toEqual([]);
      }
      expect(await projectLogCount()).toBe(logsBefore);
      expect(await snapshot(card)).toMatchObject({ status: 'unused', useCount: 0, devices: [] });
    });

    it.each(['get', 'put', 'delete', 'patch'] as const)(
      'answers %s with a JSON 405 in the Connect envelope and Allow: POST',
      async (method) => {
        for (const path of ['connect', 'conncet']) {
          const res = await t.http()[method](`/${path}/${project.program_id}`);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(res.headers.allow).toBe('POST');
          expectConnectFailure(res, 405, -10002);
        }
      },
    );

    it('answers an unknown (well-formed) program id with 404 -10201 and writes no log row', async () => {
      const programId = await unusedProgramId(t);
      const res = await connect({ user_key: 'ANY', serial: 'dev' }, programId);
      expectConnectFailure(res, 404, -PROGRAM_NOT_FOUND);
      expect(await logRowsOf(t, res.body.request_id)).toEqual([]);
    });

    it.each(['abc', '0123456x', '01234567', '1234567', '123456789', '1234567 '])(
      'answers a malformed program id %p with 404 -10201',
      async (programId) => {
        const res = await connect({ user_key: 'ANY', serial: 'dev' }, encodeURIComponent(programId));
        expectConnectFailure(res, 404, -PROGRAM_NOT_FOUND);
      },
    );

    it('never accepts the internal project key in place of the program id', async () => {
      const card = await insertCard(t, project.id);
      const res = await connect({ user_key: card.code, serial: 'dev' }, project.id);
      expectConnectFailure(res, 404, -PROGRAM_NOT_FOUND);
      expect((await reload(card)).useCount).toBe(0);
    });

    it('answers an unknown program before looking at the fields (the body type is checked first, at the input boundary)', async () => {
      const res = await t
        .http()
        .post(`/connect/${await unusedProgramId(t)}`)
        .type('form')
        .send('');
      expectConnectFailure(res, 404, -PROGRAM_NOT_FOUND);
    });
  });
});
