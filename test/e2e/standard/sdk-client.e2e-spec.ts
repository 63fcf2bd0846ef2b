import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, ClientErrorCode, ClientOptions, ErrorCode, HeartbeatData, Result } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { openConnectInEveryMode } from '../../support/connect';
import { startRelay } from '../../support/relay';
import { sessionRepo, TIMESTAMP } from '../../support/standard';
import { startTestApp, TestApp, unique } from '../../support/test-app';
import { hashToken } from '../../../src/core/crypto/tokens';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * Every method of the official client (sdk/) against the real service over real HTTP: the SDK
 * family's end-to-end tests go through the client, so client and server cannot drift apart.
 */
describe('official client against the service (e2e)', () => {
  let t: TestApp;
  let baseUrl: string;
  let author: AdminClient;
  let project: Project;

  const clientFor = (target: Project, extra: Partial<ClientOptions> = {}) =>
    new Client({
      baseUrl,
      programId: target.program_id,
      apiSecret: target.api_secret,
      legacySecret: target.legacy_secret,
      retryDelayMs: 10,
      ...extra,
    });

  /** Waits until `done()` holds, polling; fails with `what` after 10 s. */
  async function eventually(done: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await sleep(20);
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    baseUrl = await t.baseUrl();
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
  });
  afterAll(() => t.close());

  describe('SDK card login and heartbeat', () => {
    it('logs in, holds the stored card session, and renews it by heartbeat', async () => {
      const card = await insertCard(t, project.id);
      const client = clientFor(project);
      const login = await client.cardLogin({ cardKey: card.code, machineId: 'sdk-pc-1' });
      expect(login).toMatchObject({
        success: true,
        code: 0,
        httpStatus: 200,
        requestId: expect.any(String),
        data: {
          id: card.id,
          code: card.code,
          machine_code: 'sdk-pc-1',
          expires_at: expect.stringMatching(TIMESTAMP),
          expires_at_iso: expect.any(String),
          session_token: expect.any(String),
          session_expires_at: expect.stringMatching(TIMESTAMP),
          session_expires_at_iso: expect.any(String),
          heartbeat_interval_seconds: 60,
          token: expect.any(String),
          statecode: 'active',
        },
      });
      expect(client.session).toEqual({
        type: 'card',
        token: login.data!.session_token,
        machineId: 'sdk-pc-1',
        expiresAt: login.data!.session_expires_at,
        heartbeatIntervalSeconds: 60,
        cardId: card.id,
      });
      const row = await sessionRepo(t).findOneByOrFail({ tokenHash: hashToken(login.data!.session_token) });
      expect({ type: row.type, cardId: row.cardId, machine: row.machineCode }).toEqual({
        type: 'card',
        cardId: card.id,
        machine: 'sdk-pc-1',
      });

      const beat = await client.cardHeartbeat();
      expect(beat).toMatchObject({
        success: true,
        code: 0,
        data: { card_id: card.id, session_expires_at: expect.stringMatching(TIMESTAMP), server_time: expect.any(Number) },
      });
    });

    it('gives a business rejection its catalog code and message and holds no session', async () => {
      const client = clientFor(project);
      const result = await client.cardLogin({ cardKey: 'NO-SUCH-CARD-KEY', machineId: 'sdk-pc-1' });
      expect(result).toMatchObject({
        success: false,
        code: ErrorCode.CARD_INVALID,
        httpStatus: 200,
        message: expect.any(String),
        requestId: expect.any(String),
      });
      expect(result.message.length).toBeGreaterThan(0);
      expect(client.session).toBeUndefined();
      expect((await client.cardHeartbeat()).code).toBe(ClientErrorCode.NO_SESSION);
    });

    it('reports a wrong api_secret as SIGNATURE_INVALID and an unknown program as PROGRAM_NOT_FOUND', async () => {
      const card = await insertCard(t, project.id);
      const wrongSecret = await clientFor(project, { apiSecret: 'not-the-secret' }).cardLogin({
        cardKey: card.code,
        machineId: 'm',
      });
      expect(wrongSecret).toMatchObject({ success: false, code: ErrorCode.SIGNATURE_INVALID, httpStatus: 401 });
      const unknown = await clientFor({ ...project, program_id: '00000001' }).cardLogin({ cardKey: card.code, machineId: 'm' });
      expect(unknown).toMatchObject({ success: false, code: ErrorCode.PROGRAM_NOT_FOUND, httpStatus: 404 });
    });

    it('ends the heartbeat loop when an admin forces the card offline: session cleared, onSessionEnded called once', async () => {
      const card = await insertCard(t, project.id);
      const client = clientFor(project);
      expect((await client.cardLogin({ cardKey: card.code, machineId: 'sdk-loop' })).success).toBe(true);
      let beats = 0;
      const ended: Array<Result<HeartbeatData>> = [];
      const errors: Array<Result<HeartbeatData>> = [];
      const loop = client.startHeartbeat({
        intervalMs: 50,
        onBeat: () => (beats += 1),
        onSessionEnded: (r) => ended.push(r),
        onError: (r) => errors.push(r),
      });
      try {
        await eventually(() => beats >= 2, 'two heartbeats succeeded');
        await author
          .post(`/admin/v1/projects/${project.id}/sessions/revoke`, { card_id: card.id })
          .expect((res) => expect(res.status).toBeLessThan(300));
        await eventually(() => !loop.running, 'the loop stopped');
      } finally {
        loop.stop();
      }
      expect(ended.map((r) => [r.code, r.httpStatus])).toEqual([[ErrorCode.SESSION_INVALID, 401]]);
      expect(errors).toEqual([]);
      expect(client.session).toBeUndefined();
      const beatsAtEnd = beats;
      await sleep(200);
      expect(beats).toBe(beatsAtEnd);
    });
  });

  describe('program users', () => {
    it('registers once (a second registration of the name is USERNAME_TAKEN)', async () => {
      const client = clientFor(project);
      const username = unique('sdkuser');
      const first = await client.userRegister({ username, password: 'pass-word-1', machineId: 'u-pc' });
      expect(first).toMatchObject({ success: true, data: { user_id: expect.any(Number), username, status: 'active' } });
      const again = await client.userRegister({ username, password: 'pass-word-1', machineId: 'u-pc' });
      expect(again).toMatchObject({ success: false, code: ErrorCode.USERNAME_TAKEN });
    });

    it('logs in with a user session, heartbeats it, and refuses a wrong password', async () => {
      const client = clientFor(project);
      const username = unique('sdkuser');
      await client.userRegister({ username, password: 'pass-word-1', machineId: 'u-pc' });
      const wrong = await client.userLogin({ username, password: 'wrong-pass', machineId: 'u-pc' });
      expect(wrong).toMatchObject({ success: false, code: ErrorCode.BAD_CREDENTIALS });
      expect(client.session).toBeUndefined();

      const login = await client.userLogin({ username, password: 'pass-word-1', machineId: 'u-pc' });
      expect(login).toMatchObject({
        success: true,
        data: {
          profile: { username, status: 'active' },
          session_token: expect.any(String),
          machine_id: 'u-pc',
          heartbeat_interval_seconds: 60,
        },
      });
      expect(client.session).toMatchObject({ type: 'app_user', machineId: 'u-pc' });
      expect(await client.userHeartbeat()).toMatchObject({ success: true, data: { user_id: login.data!.profile.user_id } });
      expect((await client.cardHeartbeat()).code).toBe(ClientErrorCode.NO_SESSION);
    });

    it('ends the loop on SESSION_TYPE_MISMATCH: a card session restored as a user session', async () => {
      const card = await insertCard(t, project.id);
      const cardClient = clientFor(project);
      await cardClient.cardLogin({ cardKey: card.code, machineId: 'mix-pc' });
      const kept = cardClient.session!;

      const client = clientFor(project);
      client.restoreSession({ ...kept, type: 'app_user' });
      const ended: number[] = [];
      const loop = client.startHeartbeat({ intervalMs: 20, onSessionEnded: (r) => ended.push(r.code) });
      try {
        await eventually(() => !loop.running, 'the loop stopped');
      } finally {
        loop.stop();
      }
      expect(ended).toEqual([ErrorCode.SESSION_TYPE_MISMATCH]);
      expect(client.session).toBeUndefined();
      // Restored as what it is, the same token still works.
      client.restoreSession(kept);
      expect(await client.cardHeartbeat()).toMatchObject({ success: true, data: { card_id: card.id } });
    });

    it('ends the user heartbeat loop when an admin forces the user offline', async () => {
      const client = clientFor(project);
      const username = unique('sdkuser');
      const registered = await client.userRegister({ username, password: 'pass-word-1', machineId: 'u-loop' });
      await client.userLogin({ username, password: 'pass-word-1', machineId: 'u-loop' });
      let beats = 0;
      const ended: number[] = [];
      const loop = client.startHeartbeat({
        intervalMs: 50,
        onBeat: () => (beats += 1),
        onSessionEnded: (r) => ended.push(r.code),
      });
      try {
        await eventually(() => beats >= 1, 'a heartbeat succeeded');
        await author
          .post(`/admin/v1/projects/${project.id}/sessions/revoke`, { user_id: registered.data!.user_id })
          .expect((res) => expect(res.status).toBeLessThan(300));
        await eventually(() => !loop.running, 'the loop stopped');
      } finally {
        loop.stop();
      }
      expect(ended).toEqual([ErrorCode.SESSION_INVALID]);
      expect(client.session).toBeUndefined();
    });
  });

  it('checks the version', async () => {
    const target = await author.createProject();
    await author
      .post(`/admin/v1/projects/${target.id}/versions`, {
        version: '1.0.0',
        changelog: 'first',
        force_update: false,
        enabled: true,
      })
      .expect(201);
    await author
      .post(`/admin/v1/projects/${target.id}/versions`, {
        version: '1.2.0',
        changelog: 'fixes',
        force_update: true,
        enabled: true,
      })
      .expect(201);
    const client = clientFor(target);
    expect(await client.checkVersion({ version: '1.1.0' })).toMatchObject({
      success: true,
      data: { latest_version: '1.2.0', update_available: true, force_update: true, changelog: 'fixes' },
    });
    expect(await client.checkVersion({ version: '1.2.0' })).toMatchObject({
      success: true,
      data: { update_available: false, force_update: false },
    });
    expect(await client.checkVersion({ version: 'not a version' })).toMatchObject({
      success: false,
      code: ErrorCode.BAD_REQUEST,
      httpStatus: 400,
    });
  });

  it('logs in over HTTP V3 without holding a session', async () => {
    const card = await insertCard(t, project.id);
    const client = clientFor(project);
    const login = await client.v3CardLogin({ cardKey: card.code, machineId: 'v3-pc' });
    expect(login).toMatchObject({
      success: true,
      code: 0,
      data: { id: card.id, machine_code: 'v3-pc', token: expect.any(String), statecode: 'active' },
    });
    expect(login.data).not.toHaveProperty('session_token');
    expect(client.session).toBeUndefined();
  });

  describe('Connect', () => {
    it('logs in with a fresh nonce each time, and a repeated nonce of the caller is refused with 409', async () => {
      const target = await author.createProject();
      await openConnectInEveryMode(t, target.id);
      const card = await insertCard(t, target.id);
      const client = clientFor(target);
      const first = await client.connectLogin({ cardKey: card.code, serial: 'c-pc' });
      expect(first).toMatchObject({
        success: true,
        code: 1,
        data: { token: expect.any(String), machine_code: 'c-pc', device_limit: card.deviceLimit },
      });
      expect((await client.connectLogin({ cardKey: card.code, serial: 'c-pc' })).success).toBe(true);

      const nonce = unique('nonce');
      expect((await client.connectLogin({ cardKey: card.code, serial: 'c-pc', nonce })).success).toBe(true);
      const replay = await client.connectLogin({ cardKey: card.code, serial: 'c-pc', nonce });
      expect(replay).toMatchObject({ success: false, code: ErrorCode.NONCE_REPLAYED, httpStatus: 409 });

      const expired = await insertCard(t, target.id, {
        status: 'active',
        activatedAt: new Date(Date.now() - 7200_000),
        expiresAt: new Date(Date.now() - 3600_000),
      });
      const refused = await client.connectLogin({ cardKey: expired.code, serial: 'c-pc' });
      expect(refused).toMatchObject({ success: false, code: ErrorCode.CARD_EXPIRED, httpStatus: 200 });
    });

    it("reads a program's customized field names", async () => {
      const target = await author.createProject();
      await openConnectInEveryMode(t, target.id);
      const names = { status: 'ok', reason: 'text', data: 'payload', token: 'licence' };
      await author.put(`/admin/v1/projects/${target.id}/connect/customization`, { field_names: names }).expect(200);
      const card = await insertCard(t, target.id);
      const plain = await clientFor(target).connectLogin({ cardKey: card.code, serial: 'c-pc' });
      expect(plain.success).toBe(false); // without the names the answer is not a Connect success
      const result = await clientFor(target, { connectFieldNames: names }).connectLogin({ cardKey: card.code, serial: 'c-pc' });
      expect(result).toMatchObject({ success: true, data: { token: expect.any(String), machine_code: 'c-pc' } });
      expect(result.body).toMatchObject({ ok: true, text: expect.any(String), payload: { licence: expect.any(String) } });
    });
  });

  describe('legacy helpers', () => {
    it('log in and unbind with MD5-signed requests, following the project unbind rules', async () => {
      const target = await author.createProject();
      const card = await insertCard(t, target.id);
      const client = clientFor(target);
      const login = await client.legacy.cardLogin({ cardKey: card.code, machineId: 'legacy-pc' });
      expect(login).toMatchObject({
        success: true,
        code: 1,
        data: { id: card.id, token: expect.any(String), machine_code: 'legacy-pc' },
      });

      await author.patch(`/admin/v1/projects/${target.id}`, { unbind_enabled: false }).expect(200);
      expect(await client.legacy.unbind({ cardKey: card.code, machineId: 'legacy-pc' })).toMatchObject({
        success: false,
        code: ErrorCode.UNBIND_REFUSED,
        unbindReason: 'disabled',
        retryAt: null,
      });
      await author.patch(`/admin/v1/projects/${target.id}`, { unbind_enabled: true }).expect(200);
      expect(await client.legacy.unbind({ cardKey: card.code, machineId: 'legacy-pc' })).toMatchObject({
        success: true,
        code: 1,
        data: { unbind_count: 1 },
      });
      // A cooldown the author sets now holds from that unbind: the next one is refused until it has passed.
      await author.patch(`/admin/v1/projects/${target.id}`, { unbind_cooldown_seconds: 3600 }).expect(200);
      expect((await client.legacy.cardLogin({ cardKey: card.code, machineId: 'legacy-pc' })).success).toBe(true);
      expect(await client.legacy.unbind({ cardKey: card.code, machineId: 'legacy-pc' })).toMatchObject({
        success: false,
        code: ErrorCode.UNBIND_REFUSED,
        unbindReason: 'cooldown',
        retryAt: expect.stringMatching(TIMESTAMP),
      });

      const wrongKey = await clientFor(target, { legacySecret: 'not-the-secret' }).legacy.cardLogin({
        cardKey: card.code,
        machineId: 'legacy-pc',
      });
      expect(wrongKey).toMatchObject({ success: false, code: ErrorCode.SIGNATURE_INVALID });
    });

    it.each(['rc4', 'aes', 'aes-gcm'] as const)(
      'with %s transport encryption log in and unbind through the encrypted aggregate entry',
      async (mode) => {
        const target = await author.createProject({ transport_encryption: mode });
        const card = await insertCard(t, target.id);
        const client = clientFor(target, { legacyTransport: { mode, key: target.transport_key } });
        const login = await client.legacy.cardLogin({ cardKey: card.code, machineId: 'sealed-pc' });
        expect(login).toMatchObject({
          success: true,
          code: 1,
          data: { id: card.id, token: expect.any(String), machine_code: 'sealed-pc' },
        });
        expect(typeof login.body?.data).toBe('object'); // opened: the caller never sees the ciphertext
        expect(await client.legacy.unbind({ cardKey: card.code, machineId: 'sealed-pc' })).toMatchObject({
          success: true,
          code: 1,
          data: { unbind_count: 1 },
        });

        const plain = await clientFor(target).legacy.cardLogin({ cardKey: card.code, machineId: 'sealed-pc' });
        expect(plain.success).toBe(true); // the dedicated routes stay plain (docs/protocol.md 5.5)
        const wrongKey = await clientFor(target, { legacyTransport: { mode, key: 'f'.repeat(32) } }).legacy.cardLogin({
          cardKey: card.code,
          machineId: 'sealed-pc',
        });
        expect(wrongKey).toMatchObject({ success: false, code: ErrorCode.BAD_REQUEST, httpStatus: 400 });
      },
    );
  });

  describe('when the service cannot be reached', () => {
    it('answers NETWORK_ERROR when nothing listens at the address', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      const client = new Client({
        baseUrl: `http://127.0.0.1:${closedPort}`,
        programId: project.program_id,
        apiSecret: project.api_secret,
        retries: 2,
        retryDelayMs: 5,
      });
      const result = await client.checkVersion({ version: '1.0.0' });
      expect(result).toMatchObject({
        success: false,
        code: ClientErrorCode.NETWORK_ERROR,
        message: expect.stringContaining('ECONNREFUSED'),
      });
      expect(result.httpStatus).toBeUndefined();
    });

    it('calls an HTML page or a redirect from a wrong address UNEXPECTED_RESPONSE, never a success', async () => {
      // What a client meets when its base URL points at a web server or a login proxy instead.
      const wrong = createHttpServer((req, res) => {
        if (req.url?.includes('cards')) res.writeHead(302, { Location: '/login' }).end();
        else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Welcome</body></html>');
      });
      await new Promise<void>((resolve) => wrong.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = wrong.address() as { port: number };
        const client = clientFor(project, { baseUrl: `http://127.0.0.1:${port}` });
        for (const result of [
          await client.checkVersion({ version: '1.0.0' }),
          await client.cardLogin({ cardKey: 'K', machineId: 'm' }),
        ]) {
          expect(result).toMatchObject({
            success: false,
            code: ClientErrorCode.UNEXPECTED_RESPONSE,
            message: expect.stringContaining('service address'),
          });
        }
        expect(client.session).toBeUndefined();
      } finally {
        await new Promise((resolve) => wrong.close(resolve));
      }
    });
  });

  describe('signed answers and offline licences (decisions §15)', () => {
    it('trusts only answers signed with the pinned keys, on every family, and verifies a checkout licence offline', async () => {
      const target = await author.createProject({ offline_grace_seconds: 3600 });
      await openConnectInEveryMode(t, target.id);
      const published = (await author.get(`/admin/v1/projects/${target.id}/signing-keys`).expect(200)).body.items as Array<{
        kid: string;
        public_key: string;
      }>;
      const responseKeys = Object.fromEntries(published.map((k) => [k.kid, k.public_key]));
      const card = await insertCard(t, target.id);
      const client = clientFor(target, { responseKeys });
      expect((await client.cardLogin({ cardKey: card.code, machineId: 'pinned-pc' })).success).toBe(true);
      expect((await client.cardHeartbeat()).success).toBe(true);
      expect((await client.v3CardLogin({ cardKey: card.code, machineId: 'pinned-pc' })).success).toBe(true);
      expect((await client.connectLogin({ cardKey: card.code, serial: 'pinned-pc' })).success).toBe(true);
      expect((await client.legacy.cardLogin({ cardKey: card.code, machineId: 'pinned-pc' })).success).toBe(true);
      const refused = await client.cardLogin({ cardKey: card.code, machineId: 'second-pc' });
      expect([refused.success, refused.code]).toEqual([false, ErrorCode.DEVICE_LIMIT_REACHED]);

      const checkout = await client.cardCheckout({ cardKey: card.code, machineId: 'pinned-pc' });
      expect(checkout.success).toBe(true);
      const check = client.checkLicence(checkout.data!.licence, { cardKey: card.code, machineId: 'pinned-pc' });
      expect(check).toMatchObject({ valid: true, payload: { machine_id: 'pinned-pc', program_id: target.program_id } });
      expect(client.checkLicence(checkout.data!.licence, { cardKey: card.code, machineId: 'another-pc' }).valid).toBe(false);

      // Pinned to another program's keys, the same service's answers are not trusted.
      const foreign = (await author.get(`/admin/v1/projects/${project.id}/signing-keys`).expect(200)).body.items as Array<{
        kid: string;
        public_key: string;
      }>;
      const wrongKeys = clientFor(target, { responseKeys: Object.fromEntries(foreign.map((k) => [k.kid, k.public_key])) });
      const untrusted = await wrongKeys.cardLogin({ cardKey: card.code, machineId: 'pinned-pc' });
      expect([untrusted.success, untrusted.code]).toEqual([false, ClientErrorCode.UNTRUSTED_RESPONSE]);
    });
  });

  describe('trials (decisions §21)', () => {
    it("gets a device's one trial card with pinned keys, logs in with it, and every answer says trial; another device's second ask is its own", async () => {
      const target = await author.createProject({ offline_grace_seconds: 3600 });
      const type = await author
        .post(`/admin/v1/projects/${target.id}/card-types`, {
          name: 'Trial',
          kind: 'time',
          duration_seconds: 86_400,
          device_limit: 1,
          features: ['trial'],
          price_cents: 0,
        })
        .expect(201);
      await author.patch(`/admin/v1/projects/${target.id}`, { trial_card_type_id: type.body.id }).expect(200);
      const published = (await author.get(`/admin/v1/projects/${target.id}/signing-keys`).expect(200)).body.items as Array<{
        kid: string;
        public_key: string;
      }>;
      const client = clientFor(target, { responseKeys: Object.fromEntries(published.map((k) => [k.kid, k.public_key])) });
      const trial = await client.cardTrial({ machineId: 'trial-pc' });
      expect(trial).toMatchObject({
        success: true,
        code: 0,
        trial: true,
        features: ['trial'],
        data: { machine_code: 'trial-pc', trial: true, expires_at: expect.stringMatching(TIMESTAMP) },
      });
      expect((await client.cardTrial({ machineId: 'trial-pc' })).data).toEqual(trial.data);
      const login = await client.cardLogin({ cardKey: trial.data!.code, machineId: 'trial-pc' });
      expect([login.success, login.trial]).toEqual([true, true]);
      expect((await client.cardHeartbeat()).trial).toBe(true);
      expect((await client.cardInfo({ cardKey: trial.data!.code })).trial).toBe(true);
      const checkout = await client.cardCheckout({ cardKey: trial.data!.code, machineId: 'trial-pc' });
      expect(client.checkLicence(checkout.data!.licence, { cardKey: trial.data!.code, machineId: 'trial-pc' })).toMatchObject({
        valid: true,
        payload: { trial: true },
      });
      const other = await client.cardTrial({ machineId: 'other-pc' });
      expect(other.success).toBe(true);
      expect(other.data!.code).not.toBe(trial.data!.code);
    });
  });

  describe('a relay that swaps the card key for a valid one of its own (decisions §17)', () => {
    it('is refused as untrusted on Connect, legacy MD5, V3 and SDK logins and on a heartbeat, although the service answered each with a signed success', async () => {
      const target = await author.createProject();
      await openConnectInEveryMode(t, target.id);
      const published = (await author.get(`/admin/v1/projects/${target.id}/signing-keys`).expect(200)).body.items as Array<{
        kid: string;
        public_key: string;
      }>;
      const responseKeys = Object.fromEntries(published.map((k) => [k.kid, k.public_key]));
      const machineId = 'relay-pc';
      // The relay's own card, bought once, with a session on the same device.
      const bought = await insertCard(t, target.id);
      const boughtSession = await clientFor(target).cardLogin({ cardKey: bought.code, machineId });
      expect(boughtSession.success).toBe(true);
      const relay = await startRelay(baseUrl, target, {
        typedKey: 'MADE-UP-KEY-0001',
        validKey: bought.code,
        validSessionToken: boughtSession.data!.session_token,
      });
      try {
        const relayed = clientFor(target, { baseUrl: relay.url, responseKeys });
        const typed = { cardKey: 'MADE-UP-KEY-0001', machineId };
        const results: Array<Pick<Result, 'success' | 'code' | 'message'>> = [
          await relayed.connectLogin({ cardKey: typed.cardKey, serial: machineId }),
          await relayed.legacy.cardLogin(typed),
          await relayed.v3CardLogin(typed),
          await relayed.cardLogin(typed),
        ];
        // A genuine card's session on this device, its heartbeat relayed with the bought card's token.
        const genuine = await insertCard(t, target.id);
        const direct = clientFor(target, { responseKeys });
        expect((await direct.cardLogin({ cardKey: genuine.code, machineId })).success).toBe(true);
        relayed.restoreSession(direct.session!);
        results.push(await relayed.cardHeartbeat());

        expect(results.map((r) => [r.success, r.code])).toEqual(Array(5).fill([false, ClientErrorCode.UNTRUSTED_RESPONSE]));
        // The logins' signatures cover the request the service received; the heartbeat's token is outside it, its card is not.
        expect(results.map((r) => r.message)).toEqual([
          ...Array(4).fill('Untrusted answer: the answer signature does not verify'),
          'Untrusted answer: it is for another card than the one sent',
        ]);
        expect(relayed.session).toEqual(direct.session); // an untrusted heartbeat neither renews nor ends it
        // The service was fooled every time: each swapped request got a success, signed with the program's key.
        expect(relay.relayed.map((r) => [r.path, r.status, r.body.status ?? r.body.success ?? r.body.code])).toEqual([
          [`/connect/${target.program_id}`, 200, true],
          ['/api/card_login', 200, 1],
          ['/api/legacy/v3/cards/login', 200, true],
          ['/api/v1/cards/login', 200, true],
          ['/api/v1/cards/heartbeat', 200, true],
        ]);
      } finally {
        await relay.close();
      }
    });
  });
});
