import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import { RouteRegistry } from '../../../src/http/route-registry';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { insertCard } from '../../support/cards';
import { connectLogin, expectConnectFailure } from '../../support/connect';
import { inOneWindow, itInOneWindow } from '../../support/failure-window';
import { expectLegacyFailure } from '../../support/legacy';
import { signedPost } from '../../support/signing';
import { CARD_HEARTBEAT, CODES, expectStandardFailure, SDK_LOGIN } from '../../support/standard';
import { startTestApp, TestApp, unique } from '../../support/test-app';

/**
 * The third round of attacks (docs/security.md, "Third round"): each finding as its user notices
 * it, through the real HTTP stack on the run's adapter and stores. Each describe starts its own app.
 * The test client's connections come from 127.0.0.1, a trusted proxy in every app here, so a test
 * names the client it stands for in X-Forwarded-For and the scheme in X-Forwarded-Proto.
 */

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/** A signed SDK request (JSON) to `path`, from the client `forwardedFor` (if given). */
function sdkPost(t: TestApp, p: Project, path: string, body: Record<string, string>, forwardedFor?: string) {
  const req = signedPost(t, path, { app: p.program_id, ...body }, 'json', p.api_secret);
  return forwardedFor === undefined ? req : req.set('X-Forwarded-For', forwardedFor);
}

describe('hardening, third round (e2e)', () => {
  describe('5. in production, SDK, V3 and portal requests over plain HTTP are refused before anything is looked up', () => {
    const PORTAL_FAILURES = 2;
    let t: TestApp;
    let project: Project;
    let consoleDir: string;
    /** Through the trusted proxy, which says the client used HTTPS. */
    const overHttps = (req: request.Test) => req.set('X-Forwarded-Proto', 'https');

    beforeAll(async () => {
      consoleDir = mkdtempSync(join(tmpdir(), 'console-dist-'));
      writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
      writeFileSync(join(consoleDir, 'portal.html'), '<!doctype html><title>portal</title>');
      t = await startTestApp({
        NODE_ENV: 'production',
        TRUST_PROXY: '127.0.0.1',
        CONSOLE_DIR: consoleDir,
        PORTAL_FAILURES_PER_MINUTE: String(PORTAL_FAILURES),
      });
      const admin = await AdminClient.asPlatformAdmin(t);
      project = await (await admin.createAuthor()).client.createProject();
    });
    afterAll(async () => {
      await t.close();
      rmSync(consoleDir, { recursive: true, force: true });
    });

    it('answers every route of the SDK, V3 and the portal API with 10010 HTTPS_REQUIRED in the standard envelope', async () => {
      const routes = t.app
        .get(RouteRegistry)
        .list()
        .filter((route) => /^\/api\/(v1|legacy\/v3)\//.test(route.path));
      expect(routes.map((route) => route.path)).toEqual(
        expect.arrayContaining(['/api/v1/cards/heartbeat', '/api/v1/users/heartbeat', '/api/v1/portal/cards/info']),
      );
      for (const route of routes) {
        expect(`${route.method} ${route.path}`).toMatch(/^POST /);
        const form = route.path.startsWith('/api/legacy/v3/');
        const res = await t
          .http()
          .post(route.path)
          .type(form ? 'form' : 'json')
          .send(form ? `app=${project.program_id}` : { app: project.program_id });
        expect({ route: route.path, status: res.status, code: res.body.code }).toEqual({
          route: route.path,
          status: 403,
          code: CODES.HTTPS_REQUIRED,
        });
        expectStandardFailure(res, 403, CODES.HTTPS_REQUIRED);
      }
    });

    it('refuses a card heartbeat carrying a live session token, which the same heartbeat over HTTPS keeps alive', async () => {
      const card = await insertCard(t, project.id);
      const machine = unique('pc');
      const login = await overHttps(sdkPost(t, project, SDK_LOGIN, { card_key: card.code, machine_id: machine }));
      expect(login.body.code).toBe(0);
      const heartbeat = () =>
        t
          .http()
          .post(CARD_HEARTBEAT)
          .set('Authorization', `Bearer ${login.body.data.session_token}`)
          .send({ machine_id: machine });
      expectStandardFailure(await heartbeat(), 403, CODES.HTTPS_REQUIRED);
      expect((await overHttps(heartbeat())).body.code).toBe(0);
    });

    it("refuses a user heartbeat before its token is looked up (10010, not the session's 30101)", async () => {
      const heartbeat = () =>
        t
          .http()
          .post('/api/v1/users/heartbeat')
          .set('Authorization', `Bearer ${randomBytes(32).toString('hex')}`)
          .send({ machine_id: 'pc' });
      expectStandardFailure(await heartbeat(), 403, CODES.HTTPS_REQUIRED);
      expectStandardFailure(await overHttps(heartbeat()), 401, CODES.SESSION_INVALID);
    });

    itInOneWindow('refuses portal calls before a card key is looked up or counted as a guess', async () => {
      const ip = `198.51.100.${randomInt(1, 250)}`;
      const info = () =>
        t
          .http()
          .post('/api/v1/portal/cards/info')
          .set('X-Forwarded-For', ip)
          .send({ program_id: project.program_id, card_key: 'NO-SUCH-KEY' });
      for (let i = 0; i <= PORTAL_FAILURES; i++) expectStandardFailure(await info(), 403, CODES.HTTPS_REQUIRED);
      // None of them counted: over HTTPS the same address still gets its verdict.
      expectStandardFailure(await overHttps(info()), 200, CODES.CARD_INVALID);
    });

    it("serves the portal's page over HTTPS only", async () => {
      const plain = await t.http().get('/portal');
      expect({ status: plain.status, type: plain.headers['content-type'] }).toEqual({
        status: 403,
        type: 'text/plain; charset=utf-8',
      });
      expect(plain.text).toContain('HTTPS');
      const secure = await overHttps(t.http().get('/portal'));
      expect({ status: secure.status, page: secure.text }).toEqual({
        status: 200,
        page: expect.stringContaining('<title>portal</title>'),
      });
    });
  });

  describe('6. rotating IPv6 addresses inside one /64 does not multiply the per-address limits', () => {
    const GUESSES = 4;
    const PORTAL_FAILURES = 4;
    const REGISTRATIONS = 3;
    const BURST = 30;
    let t: TestApp;
    let url: string;
    let author: AdminClient;

    beforeAll(async () => {
      t = await startTestApp({
        TRUST_PROXY: '127.0.0.1,::1',
        PORTAL_FAILURES_PER_MINUTE: String(PORTAL_FAILURES),
        RATE_LIMIT_REGISTER_PER_ADDRESS: String(REGISTRATIONS),
      });
      url = await t.baseUrl();
      author = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
    });
    afterAll(() => t.close());

    /** A /64 of its own: `2001:db8:x:y`, whose addresses are `${network}:a:b:c:d`. */
    const freshNetwork = () => `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;
    /** A different address of `network` each time, as a subscriber rotating through its /64 would use. */
    const addressIn = (network: string) =>
      `${network}:${Array.from({ length: 4 }, () => randomInt(0x10000).toString(16)).join(':')}`;
    const tally = (answers: Response[], verdict: number) => ({
      verdicts: answers.filter((res) => res.status === 200 && res.body.code === verdict).length,
      limited: answers.filter((res) => res.status === 429 && res.body.code === CODES.RATE_LIMITED).length,
    });
    /** Over one listening socket, so that a burst opens no server per request. */
    const post = (path: string, address: string) => request(url).post(path).set('X-Forwarded-For', address);

    itInOneWindow(`answers ${GUESSES} of ${BURST} wrong card keys sent from ${BURST} addresses of one /64`, async () => {
      const project = await author.createProject({ card_guess_limit_per_minute: GUESSES });
      const network = freshNetwork();
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          sdkPost(t, project, '/api/v1/cards/info', { card_key: `WRONG-${i}` }).set('X-Forwarded-For', addressIn(network)),
        ),
      );
      expect(tally(answers, CODES.CARD_INVALID)).toEqual({ verdicts: GUESSES, limited: BURST - GUESSES });
      // Another /64, and an IPv4 client, are counted on their own.
      const elsewhere = sdkPost(t, project, '/api/v1/cards/info', { card_key: 'WRONG' }).set(
        'X-Forwarded-For',
        addressIn(freshNetwork()),
      );
      expectStandardFailure(await elsewhere, 200, CODES.CARD_INVALID);
      const ipv4 = sdkPost(t, project, '/api/v1/cards/info', { card_key: 'WRONG' }).set(
        'X-Forwarded-For',
        `203.0.113.${randomInt(1, 250)}`,
      );
      expectStandardFailure(await ipv4, 200, CODES.CARD_INVALID);
    });

    itInOneWindow(
      `answers ${PORTAL_FAILURES} of ${BURST} wrong portal guesses sent from ${BURST} addresses of one /64`,
      async () => {
        const project = await author.createProject();
        const network = freshNetwork();
        const answers = await Promise.all(
          Array.from({ length: BURST }, (_, i) =>
            post('/api/v1/portal/cards/info', addressIn(network)).send({
              program_id: project.program_id,
              card_key: `WRONG-${i}`,
            }),
          ),
        );
        expect(tally(answers, CODES.CARD_INVALID)).toEqual({ verdicts: PORTAL_FAILURES, limited: BURST - PORTAL_FAILURES });
      },
    );

    it(`counts request rates per /64 too: ${REGISTRATIONS} registrations a window, whichever addresses of it`, () =>
      inOneWindow(async () => {
        const project = await author.createProject();
        const network = freshNetwork();
        const register = (address: string) =>
          sdkPost(
            t,
            project,
            '/api/v1/users/register',
            { username: unique('u'), password: 'password-1', machine_id: 'pc' },
            address,
          );
        for (let i = 0; i < REGISTRATIONS; i++) expect((await register(addressIn(network))).body.code).toBe(0);
        expectStandardFailure(await register(addressIn(network)), 429, CODES.RATE_LIMITED);
        expect((await register(addressIn(freshNetwork()))).body.code).toBe(0);
      }));
  });

  describe('11. behind a trusted proxy, a client whose forwarded address carries a port is still known by its address', () => {
    let t: TestApp;
    let author: AdminClient;
    let project: Project;

    beforeAll(async () => {
      t = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
      author = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
      project = await author.createProject({ card_guess_limit_per_minute: 3 });
      for (const value of ['203.0.113.7', '2001:db8::1'])
        await author.post(`/admin/v1/projects/${project.id}/login-blacklist`, { kind: 'address', value }).expect(201);
    });
    afterAll(() => t.close());

    const login = (cardKey: string, forwardedFor: string) =>
      sdkPost(t, project, SDK_LOGIN, { card_key: cardKey, machine_id: unique('pc') }, forwardedFor);

    it('keeps refusing a blacklisted address whose hop names a port, IPv4 or bracketed IPv6', async () => {
      const card = await insertCard(t, project.id, { deviceLimit: 5 });
      for (const hop of ['203.0.113.7:4321', '[2001:db8::1]:4321', '[2001:db8::1]']) {
        const res = await login(card.code, hop);
        expect({ hop, code: res.body.code }).toEqual({ hop, code: CODES.BLACKLISTED });
        expectStandardFailure(res, 403, CODES.BLACKLISTED);
      }
      expect((await login(card.code, '192.0.2.7:4321')).body.code).toBe(0);
    });

    // The guessing clients come from 198.51.100.0/24 and the clients that must log in from 192.0.2.0/24,
    // so a random guesser can never have used up the quota of an address a later test logs in from.
    itInOneWindow("counts each such client on its own, not on the proxy's address", async () => {
      const [first, second] = [`198.51.100.${randomInt(1, 125)}:1111`, `198.51.100.${randomInt(126, 250)}:2222`];
      for (let i = 0; i < 3; i++) expectStandardFailure(await login(`WRONG-${i}`, first), 200, CODES.CARD_INVALID);
      expectStandardFailure(await login('WRONG-AFTER', first), 429, CODES.RATE_LIMITED);
      expectStandardFailure(await login('WRONG-ELSEWHERE', second), 200, CODES.CARD_INVALID);
    });

    it("refuses with 400 in each family's envelope a forwarded client hop that is not an address", async () => {
      for (const hop of ['unknown', '203.0.113.7:99999', '203.0.113.7, garbage']) {
        expectStandardFailure(await login('ANY-KEY', hop), 400, CODES.BAD_REQUEST);
        const legacy = await t
          .http()
          .post('/api/kmlogon')
          .set('X-Forwarded-For', hop)
          .type('form')
          .send({ app: project.program_id, kami: 'ANY-KEY', imei: 'pc' });
        expectLegacyFailure(legacy, 400, CODES.BAD_REQUEST);
        const connect = await connectLogin(t, project.program_id, { user_key: 'ANY-KEY', serial: 'pc' }).set(
          'X-Forwarded-For',
          hop,
        );
        expectConnectFailure(connect, 400, -CODES.BAD_REQUEST);
        const admin = await t
          .http()
          .post('/admin/v1/auth/login')
          .set('X-Forwarded-For', hop)
          .send({ username: 'x', password: 'y' });
        expectAdminError(admin, 400, CODES.BAD_REQUEST, 'X-Forwarded-For');
      }
    });

    it('still ignores what the client itself wrote left of its own hop', async () => {
      const card = await insertCard(t, project.id);
      expect((await login(card.code, 'garbage, 203.0.113.7, 192.0.2.9:80')).body.code).toBe(0);
    });
  });
});
