import { randomBytes } from 'node:crypto';
import request, { type Response } from 'supertest';
import { hmacSignature } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { expectConnectFailure, openConnectInEveryMode } from '../../support/connect';
import { inOneWindow, itInOneWindow } from '../../support/failure-window';
import { expectLegacyFailure, md5Signed } from '../../support/legacy';
import { CODES, expectStandardFailure, SDK_LOGIN, V3_LOGIN } from '../../support/standard';
import { startTestApp, TestApp, unique, uniqueAddress } from '../../support/test-app';

/**
 * Guessing limits (decisions §23; the red team's findings 3, 4 and 9): every route that looks a card key
 * up counts keys that match no card per program and client address, atomically, so that a burst of
 * parallel wrong guesses from one address gets no more than the limit answered with a card verdict
 * and the rest 429 RATE_LIMITED with Retry-After, in the family's envelope. Program-user passwords,
 * the portal and the legacy transport are limited the same way. Client addresses are simulated with
 * X-Forwarded-For from the trusted loopback.
 */

const LIMIT = 5;
const BURST = 40;
const PORTAL_LIMIT = 10;
const USER_LIMIT = 4;
const TRANSPORT_LIMIT = 20;
const { RATE_LIMITED, CARD_INVALID, TOPUP_REFUSED, BAD_CREDENTIALS, BAD_REQUEST } = CODES;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;
type Family = 'connect' | 'standard' | 'legacy';

interface Route {
  name: string;
  family: Family;
  /** A request that puts `key` where a card key is guessed. */
  send(p: Project, key: string, ip: string): Promise<Response>;
  /** The answer to a wrong key (default CARD_INVALID). */
  verdict?: number;
}

describe('guessing limits (e2e)', () => {
  let t: TestApp;
  let url: string;
  let author: AdminClient;
  let admin: AdminClient;
  /** card_guess_limit_per_minute = LIMIT; checkout on; Connect open. */
  let project: Project;
  /** The same author's second program, default settings (limit 20). */
  let other: Project;

  beforeAll(async () => {
    t = await startTestApp({
      TRUST_PROXY: '127.0.0.1,::1',
      PORTAL_FAILURES_PER_MINUTE: String(PORTAL_LIMIT),
      APP_USER_LOGIN_ATTEMPTS_PER_MINUTE: String(USER_LIMIT),
      TRANSPORT_FAILURES_PER_MINUTE: String(TRANSPORT_LIMIT),
    });
    url = await t.baseUrl();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject({ card_guess_limit_per_minute: LIMIT, offline_grace_seconds: 3600 });
    other = await author.createProject({ offline_grace_seconds: 3600 });
    for (const p of [project, other]) await openConnectInEveryMode(t, p.id);
  });
  afterAll(() => t.close());

  /** Requests over one listening socket (a burst through supertest's app form would open a server per request). */
  const http = () => request(url);
  const form = (path: string, fields: Record<string, string>, ip: string) =>
    http().post(path).set('X-Forwarded-For', ip).type('form').send(new URLSearchParams(fields).toString());
  const json = (path: string, body: object, ip: string) => http().post(path).set('X-Forwarded-For', ip).send(body);
  function signed(p: Project, path: string, body: Record<string, string>, kind: 'form' | 'json', ip: string) {
    const raw = kind === 'form' ? new URLSearchParams(body).toString() : JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(12).toString('hex');
    return http()
      .post(path)
      .set({
        'Content-Type': kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
        'X-Svc-Timestamp': timestamp,
        'X-Svc-Nonce': nonce,
        'X-Svc-Signature': hmacSignature(p.api_secret, { method: 'POST', path, timestamp, nonce, body: raw }),
        'X-Forwarded-For': ip,
      })
      .send(raw);
  }
  const sdk = (p: Project, action: string, body: Record<string, string>, ip: string) =>
    signed(p, `/api/v1/cards/${action}`, { app: p.program_id, ...body }, 'json', ip);
  const portal = (action: string, body: object, ip: string) => json(`/api/v1/portal/cards/${action}`, body, ip);

  /** A real card of `p` whose key the top-up route's guessed top-up key goes with. */
  const topupTargets = new Map<string, string>();
  async function topupTarget(p: Project): Promise<string> {
    if (!topupTargets.has(p.id))
      topupTargets.set(
        p.id,
        (await insertCard(t, p.id, { status: 'active', activatedAt: new Date(), expiresAt: new Date(Date.now() + 86_400_000) }))
          .code,
      );
    return topupTargets.get(p.id)!;
  }

  const ROUTES: Route[] = [
    {
      name: 'Connect /connect/:id',
      family: 'connect',
      send: (p, key, ip) => form(`/connect/${p.program_id}`, { user_key: key, serial: 'dev' }, ip),
    },
    {
      name: 'V3 login',
      family: 'standard',
      send: (p, key, ip) => signed(p, V3_LOGIN, { app: p.program_id, kami: key, imei: 'dev' }, 'form', ip),
    },
    {
      name: 'SDK login',
      family: 'standard',
      send: (p, key, ip) => signed(p, SDK_LOGIN, { app: p.program_id, card_key: key, machine_id: 'dev' }, 'json', ip),
    },
    { name: 'SDK info', family: 'standard', send: (p, key, ip) => sdk(p, 'info', { card_key: key }, ip) },
    {
      name: 'SDK checkout',
      family: 'standard',
      send: (p, key, ip) => sdk(p, 'checkout', { card_key: key, machine_id: 'dev' }, ip),
    },
    { name: 'SDK unbind', family: 'standard', send: (p, key, ip) => sdk(p, 'unbind', { card_key: key, machine_id: 'dev' }, ip) },
    {
      name: 'SDK top-up (card key)',
      family: 'standard',
      send: (p, key, ip) => sdk(p, 'topup', { card_key: key, topup_key: 'NO-SUCH-TOPUP' }, ip),
    },
    {
      name: 'SDK top-up (top-up key)',
      family: 'standard',
      verdict: TOPUP_REFUSED,
      send: async (p, key, ip) => sdk(p, 'topup', { card_key: await topupTarget(p), topup_key: key }, ip),
    },
    {
      name: 'legacy /api/kmlogon',
      family: 'legacy',
      send: (p, key, ip) => form('/api/kmlogon', { app: p.program_id, kami: key, imei: 'dev' }, ip),
    },
    {
      name: 'legacy /api/card_login (MD5)',
      family: 'legacy',
      send: (p, key, ip) =>
        form('/api/card_login', md5Signed({ app: p.program_id, kami: key, imei: 'dev' }, p.legacy_secret), ip),
    },
    {
      name: 'legacy /api/kmunmachine',
      family: 'legacy',
      send: (p, key, ip) => form('/api/kmunmachine', { app: p.program_id, kami: key, imei: 'dev' }, ip),
    },
    {
      name: 'legacy /api/unbind_machine (MD5)',
      family: 'legacy',
      send: (p, key, ip) =>
        form('/api/unbind_machine', md5Signed({ app: p.program_id, kami: key, imei: 'dev' }, p.legacy_secret), ip),
    },
    {
      name: 'legacy /api/check',
      family: 'legacy',
      send: (p, key, ip) => form('/api/check', { app: p.program_id, kami: key, imei: 'dev' }, ip),
    },
    {
      name: 'legacy GET /api/paycheck',
      family: 'legacy',
      send: (p, key, ip) => http().get('/api/paycheck').query({ app: p.program_id, kami: key }).set('X-Forwarded-For', ip),
    },
    {
      name: 'legacy POST /api/paycheck',
      family: 'legacy',
      send: (p, key, ip) => form('/api/paycheck', { app: p.program_id, kami: key }, ip),
    },
    {
      name: 'legacy /api/app card_login',
      family: 'legacy',
      send: (p, key, ip) =>
        form('/api/app', md5Signed({ app: p.program_id, api: 'card_login', kami: key, imei: 'dev' }, p.legacy_secret), ip),
    },
    {
      name: 'legacy /api/app card_unbind',
      family: 'legacy',
      send: (p, key, ip) =>
        form('/api/app', md5Signed({ app: p.program_id, api: 'card_unbind', kami: key, imei: 'dev' }, p.legacy_secret), ip),
    },
  ];

  function expectVerdict(route: Route, res: Response): void {
    const code = route.verdict ?? CARD_INVALID;
    if (route.family === 'connect') expectConnectFailure(res, 200, -code);
    else if (route.family === 'standard') expectStandardFailure(res, 200, code);
    else expectLegacyFailure(res, 200, code);
  }

  function expectRateLimited(family: Family, res: Response): void {
    if (family === 'connect') expectConnectFailure(res, 429, -RATE_LIMITED);
    else if (family === 'standard') expectStandardFailure(res, 429, RATE_LIMITED);
    else expectLegacyFailure(res, 429, RATE_LIMITED);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  }

  /** The code of an answer in any family (Connect's are negative). */
  const codeOf = (res: Response) => Math.abs(res.body.code);

  /** Fires `count` parallel wrong guesses; returns the answers that were a verdict and those that were 429. */
  async function burst(route: Route, p: Project, ip: string, count: number) {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => route.send(p, `WRONG-${unique('k')}-${i}`, ip)));
    const verdicts = answers.filter((res) => res.status === 200 && codeOf(res) === (route.verdict ?? CARD_INVALID));
    const limited = answers.filter((res) => res.status === 429);
    return { answers, verdicts, limited };
  }

  describe.each(ROUTES)('$name', (route) => {
    itInOneWindow(
      `answers ${LIMIT} of ${BURST} parallel wrong guesses from one address with the card verdict and the rest 429 in the family's envelope`,
      async () => {
        const ip = uniqueAddress();
        const { answers, verdicts, limited } = await burst(route, project, ip, BURST);
        expect({ verdicts: verdicts.length, limited: limited.length }).toEqual({ verdicts: LIMIT, limited: BURST - LIMIT });
        expectVerdict(route, verdicts[0]);
        for (const res of limited) expectRateLimited(route.family, res);
        expect(answers).toHaveLength(BURST);
        // Per program: the same address still gets a verdict from another program.
        expectVerdict(route, await route.send(other, 'WRONG-ELSEWHERE', ip));
        // Per address: another address still gets a verdict here.
        expectVerdict(route, await route.send(project, 'WRONG-FROM-ELSEWHERE', uniqueAddress()));
      },
    );
  });

  describe('the guesses that matter', () => {
    const byName = (name: string) => ROUTES.find((r) => r.name === name)!;

    it.each(['legacy GET /api/paycheck', 'legacy /api/check', 'SDK info', 'SDK login'])(
      '%s: of 300 parallel wrong guesses at the default limit, 20 get a verdict and 280 are 429',
      (name) =>
        inOneWindow(async () => {
          const fresh = await author.createProject();
          const { verdicts, limited } = await burst(byName(name), fresh, uniqueAddress(), 300);
          expect({ verdicts: verdicts.length, limited: limited.length }).toEqual({ verdicts: 20, limited: 280 });
        }),
      120_000,
    );

    itInOneWindow('over the limit a right key is refused without a lookup; from another address it logs in', async () => {
      const ip = uniqueAddress();
      const card = await insertCard(t, project.id);
      const login = byName('legacy /api/kmlogon');
      await burst(login, project, ip, LIMIT);
      expectRateLimited('legacy', await login.send(project, card.code, ip));
      expect(await cardRepos(t).cards.findOneByOrFail({ id: card.id })).toMatchObject({ status: 'unused', useCount: 0 });
      const ok = await login.send(project, card.code, uniqueAddress());
      expect({ status: ok.status, code: ok.body.code }).toEqual({ status: 200, code: 1 });
    });

    itInOneWindow(
      'right keys never count: many parallel logins from one address all succeed, and wrong ones still get their verdicts',
      async () => {
        const ip = uniqueAddress();
        const login = byName('SDK login');
        const cards = await Promise.all(Array.from({ length: 3 * LIMIT }, () => insertCard(t, project.id)));
        const answers = await Promise.all(cards.map((card) => login.send(project, card.code, ip)));
        expect(answers.map((res) => res.body.code)).toEqual(cards.map(() => 0));
        const { verdicts } = await burst(login, project, ip, LIMIT);
        expect(verdicts).toHaveLength(LIMIT);
      },
    );

    itInOneWindow('counts the misses of every card route of a program together', async () => {
      const ip = uniqueAddress();
      for (let i = 0; i < LIMIT; i++)
        expectVerdict(ROUTES[i % ROUTES.length], await ROUTES[i % ROUTES.length].send(project, `WRONG-${i}`, ip));
      for (const route of ROUTES) expectRateLimited(route.family, await route.send(project, 'WRONG-AFTER', ip));
    });
  });

  describe('the portal', () => {
    /** Default card limit (20), so that the portal's own PORTAL_LIMIT per address binds first. */
    let open: Project;
    let card: { code: string };
    beforeAll(async () => {
      open = await author.createProject();
      card = await insertCard(t, open.id, {
        status: 'active',
        activatedAt: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    });

    itInOneWindow(`answers ${PORTAL_LIMIT} of 200 parallel wrong guesses with CARD_INVALID and the rest 429`, async () => {
      const ip = uniqueAddress();
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => portal('info', { program_id: open.program_id, card_key: `WRONG-${i}` }, ip)),
      );
      expect(answers.filter((res) => res.status === 200 && res.body.code === CARD_INVALID)).toHaveLength(PORTAL_LIMIT);
      const limited = answers.filter((res) => res.status === 429);
      expect(limited).toHaveLength(200 - PORTAL_LIMIT);
      for (const res of limited.slice(0, 5)) expectRateLimited('standard', res);
      // Another address still sees its card.
      expect((await portal('info', { program_id: open.program_id, card_key: card.code }, uniqueAddress())).body.code).toBe(0);
    });

    itInOneWindow('counts wrong top-up keys', async () => {
      const ip = uniqueAddress();
      for (let i = 0; i < PORTAL_LIMIT; i++) {
        expectStandardFailure(
          await portal('topup', { program_id: open.program_id, card_key: card.code, topup_key: `WRONG-TOPUP-${i}` }, ip),
          200,
          TOPUP_REFUSED,
        );
      }
      expectRateLimited(
        'standard',
        await portal('topup', { program_id: open.program_id, card_key: card.code, topup_key: 'WRONG-TOPUP-AFTER' }, ip),
      );
    });

    it('answers a wrong key, an unknown program, a program whose portal is off, a disabled program and a disabled author alike, unsigned', async () => {
      const closed = await author.createProject({ portal_enabled: false });
      const disabled = await author.createProject({ status: 'disabled' });
      const gone = await admin.createAuthor();
      const orphan = await gone.client.createProject();
      await admin.patch(`/admin/v1/authors/${gone.id}`, { status: 'disabled' }).expect(200);
      const cardOf = async (p: Project) => (await insertCard(t, p.id)).code;
      const probes = [
        { program_id: open.program_id, card_key: 'NO-SUCH-CARD-KEY' },
        { program_id: '99999999', card_key: 'NO-SUCH-CARD-KEY' },
        { program_id: 'not-a-program', card_key: 'NO-SUCH-CARD-KEY' },
        { program_id: closed.program_id, card_key: await cardOf(closed) },
        { program_id: disabled.program_id, card_key: await cardOf(disabled) },
        { program_id: orphan.program_id, card_key: await cardOf(orphan) },
      ];
      const seen = [];
      for (const body of probes) {
        const res = await portal('info', body, uniqueAddress());
        expectStandardFailure(res, 200, CARD_INVALID);
        expect(Object.keys(res.headers).filter((name) => name.startsWith('x-svc-response'))).toEqual([]);
        const { request_id: _id, ...rest } = res.body;
        seen.push(JSON.stringify(rest));
      }
      expect(new Set(seen).size).toBe(1);
    });

    itInOneWindow('counts an unknown program like a wrong key, so its 429 comes at the same point', async () => {
      const ip = uniqueAddress();
      for (let i = 0; i < PORTAL_LIMIT; i++)
        expectStandardFailure(await portal('info', { program_id: '99999999', card_key: `K-${i}` }, ip), 200, CARD_INVALID);
      expectRateLimited('standard', await portal('info', { program_id: '99999999', card_key: 'K-after' }, ip));
      expectRateLimited('standard', await portal('info', { program_id: open.program_id, card_key: card.code }, ip));
    });
  });

  describe('program-user passwords', () => {
    const register = async (p: Project, username: string) =>
      expect(
        (
          await signed(
            p,
            '/api/v1/users/register',
            { app: p.program_id, username, password: 'right-password-1', machine_id: 'm' },
            'json',
            uniqueAddress(),
          )
        ).body.code,
      ).toBe(0);
    const routes: Array<{
      name: string;
      family: Family;
      send: (p: Project, username: string, password: string, ip: string) => Promise<Response>;
    }> = [
      {
        name: 'SDK /api/v1/users/login',
        family: 'standard',
        send: (p, username, password, ip) =>
          signed(p, '/api/v1/users/login', { app: p.program_id, username, password, machine_id: 'm' }, 'json', ip),
      },
      {
        name: 'legacy /api/app-users/login',
        family: 'legacy',
        send: (p, username, password, ip) =>
          form('/api/app-users/login', { app: p.program_id, username, password, machine_id: 'm' }, ip),
      },
      {
        name: 'legacy /api/app user_login',
        family: 'legacy',
        send: (p, username, password, ip) =>
          form(
            '/api/app',
            md5Signed({ app: p.program_id, api: 'user_login', username, password, machine_id: 'm' }, p.legacy_secret),
            ip,
          ),
      },
    ];

    describe.each(routes)('$name', (route) => {
      itInOneWindow(
        `answers ${USER_LIMIT} of ${BURST} parallel wrong passwords on many accounts from one address, the rest 429`,
        async () => {
          const ip = uniqueAddress();
          const answers = await Promise.all(
            Array.from({ length: BURST }, (_, i) => route.send(project, unique(`nobody${i}`), 'wrong-password', ip)),
          );
          expect(answers.filter((res) => res.status === 200 && res.body.code === BAD_CREDENTIALS)).toHaveLength(USER_LIMIT);
          const limited = answers.filter((res) => res.status === 429);
          expect(limited).toHaveLength(BURST - USER_LIMIT);
          expectRateLimited(route.family, limited[0]);
        },
      );

      itInOneWindow(
        `answers ${USER_LIMIT} of ${BURST} parallel wrong passwords on one account from many addresses, the rest 429`,
        async () => {
          const username = unique('victim');
          await register(project, username);
          const answers = await Promise.all(
            Array.from({ length: BURST }, () => route.send(project, username, 'wrong-password', uniqueAddress())),
          );
          expect(answers.filter((res) => res.status === 200 && res.body.code === BAD_CREDENTIALS)).toHaveLength(USER_LIMIT);
          expect(answers.filter((res) => res.status === 429)).toHaveLength(BURST - USER_LIMIT);
        },
      );
    });
  });

  itInOneWindow(
    `the legacy transport answers ${TRANSPORT_LIMIT} of 300 parallel ciphertexts that do not open, the rest 429`,
    async () => {
      const aes = await author.createProject({ transport_encryption: 'aes-gcm' });
      const ip = uniqueAddress();
      const answers = await Promise.all(
        Array.from({ length: 300 }, () =>
          form('/api/app', { app: aes.program_id, data: randomBytes(48).toString('base64') }, ip),
        ),
      );
      expect(answers.filter((res) => res.status === 400 && res.body.code === BAD_REQUEST)).toHaveLength(TRANSPORT_LIMIT);
      const limited = answers.filter((res) => res.status === 429);
      expect(limited).toHaveLength(300 - TRANSPORT_LIMIT);
      expectRateLimited('legacy', limited[0]);
    },
    120_000,
  );
});
