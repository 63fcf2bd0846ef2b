import { createHmac, randomBytes } from 'node:crypto';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { unusedProgramId } from '../../support/connect';
import { CODES, expectStandardFailure, SDK_LOGIN, sdkLogin, V3_LOGIN, v3Login } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/** HMAC-SHA256 hex of METHOD\nPATH\nts\nnonce\nRAW_BODY (decisions §3), independent of the server's code. */
function hmac(secret: string, path: string, timestamp: string, nonce: string, raw: string, method = 'POST'): string {
  return createHmac('sha256', secret).update(`${method}\n${path}\n${timestamp}\n${nonce}\n${raw}`).digest('hex');
}

const now = () => Math.floor(Date.now() / 1000);
const freshNonce = () => `n-${randomBytes(10).toString('hex')}`;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

describe('standard family authentication: app rules, HMAC signature, timestamp, nonce, methods (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  let other: Project;

  /** Posts `sent` as the raw body with explicit signature headers (null = header left out). */
  function rawPost(
    url: string,
    contentType: string | null,
    sent: string,
    headers: { timestamp?: string | null; nonce?: string | null; signature?: string | null } = {},
  ) {
    const req = t.http().post(url);
    if (contentType !== null) req.set('Content-Type', contentType);
    if (headers.timestamp != null) req.set('X-Svc-Timestamp', headers.timestamp);
    if (headers.nonce != null) req.set('X-Svc-Nonce', headers.nonce);
    if (headers.signature != null) req.set('X-Svc-Signature', headers.signature);
    return req.send(sent);
  }

  /**
   * A request signed here by hand over `raw` for `signedPath`, with a fresh timestamp and nonce;
   * `shape` may alter the signature sent.
   */
  function handSigned(
    url: string,
    contentType: string,
    raw: string,
    signedPath: string,
    shape: (signature: string) => string = (s) => s,
  ) {
    const ts = String(now());
    const nonce = freshNonce();
    return rawPost(url, contentType, raw, {
      timestamp: ts,
      nonce,
      signature: shape(hmac(project.api_secret, signedPath, ts, nonce, raw)),
    });
  }

  /** An unsigned form post to the V3 login (no X-Svc-* header at all). */
  const unsignedV3 = (raw: string) => rawPost(V3_LOGIN, FORM, raw);
  /** An unsigned JSON post to the SDK login. */
  const unsignedSdk = (body: object) => rawPost(SDK_LOGIN, JSON_TYPE, JSON.stringify(body));

  const v3 = (body: Record<string, string>, options = {}, secret = project.api_secret) => v3Login(t, secret, body, options);
  const sdk = (body: Record<string, string>, options = {}, secret = project.api_secret) => sdkLogin(t, secret, body, options);

  async function v3Body(target = project): Promise<Record<string, string>> {
    const card = await insertCard(t, target.id);
    return { app: target.program_id, kami: card.code, imei: 'auth-dev' };
  }
  async function sdkBody(target = project): Promise<Record<string, string>> {
    const card = await insertCard(t, target.id);
    return { app: target.program_id, card_key: card.code, machine_id: 'auth-dev' };
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    other = await author.createProject();
  });
  afterAll(() => t.close());

  describe('app rules, checked before the signature (requests sent unsigned)', () => {
    it('answers a V3 request without app with APP_REQUIRED 10004 (HTTP 400), not SIGNATURE_INVALID', async () => {
      const card = await insertCard(t, project.id);
      const res = await unsignedV3(`kami=${card.code}&imei=dev`);
      expectStandardFailure(res, 400, CODES.APP_REQUIRED);
    });

    it('answers a V3 request whose app is empty or blank with APP_REQUIRED 10004', async () => {
      expectStandardFailure(await unsignedV3('app=&kami=K&imei=D'), 400, CODES.APP_REQUIRED);
      expectStandardFailure(await unsignedV3('app=%20%20&kami=K&imei=D'), 400, CODES.APP_REQUIRED);
    });

    it('answers a V3 request with app only inside data (a ciphertext) with APP_REQUIRED 10004', async () => {
      const ciphertext = Buffer.from(`app=${project.program_id}&kami=K&imei=D`).toString('base64');
      expectStandardFailure(await unsignedV3(`data=${encodeURIComponent(ciphertext)}`), 400, CODES.APP_REQUIRED);
    });

    it('answers a V3 request with app only as a nested data field (data[app]) with APP_REQUIRED 10004', async () => {
      expectStandardFailure(await unsignedV3(`data%5Bapp%5D=${project.program_id}&kami=K&imei=D`), 400, CODES.APP_REQUIRED);
    });

    it('answers a V3 request with app plus a data field with CIPHERTEXT_NOT_ALLOWED 10003 (HTTP 400)', async () => {
      const res = await unsignedV3(`app=${project.program_id}&data=${encodeURIComponent('AAAA+/==')}`);
      expectStandardFailure(res, 400, CODES.CIPHERTEXT_NOT_ALLOWED);
    });

    it('answers CIPHERTEXT_NOT_ALLOWED 10003 even when the data field is empty and the request is signed', async () => {
      const res = await v3({ ...(await v3Body()), data: '' });
      expectStandardFailure(res, 400, CODES.CIPHERTEXT_NOT_ALLOWED);
    });

    it('answers a V3 request whose app is the internal project key (UUID) with INTERNAL_KEY_NOT_ACCEPTED 10005 (HTTP 400)', async () => {
      const card = await insertCard(t, project.id);
      expectStandardFailure(await unsignedV3(`app=${project.id}&kami=${card.code}&imei=D`), 400, CODES.INTERNAL_KEY_NOT_ACCEPTED);
    });

    it('refuses the internal key also upper-cased, without dashes, and when properly signed with the api_secret', async () => {
      expectStandardFailure(
        await unsignedV3(`app=${project.id.toUpperCase()}&kami=K&imei=D`),
        400,
        CODES.INTERNAL_KEY_NOT_ACCEPTED,
      );
      expectStandardFailure(
        await unsignedV3(`app=${project.id.replace(/-/g, '')}&kami=K&imei=D`),
        400,
        CODES.INTERNAL_KEY_NOT_ACCEPTED,
      );
      const card = await insertCard(t, project.id);
      const res = await v3({ app: project.id, kami: card.code, imei: 'D' });
      expectStandardFailure(res, 400, CODES.INTERNAL_KEY_NOT_ACCEPTED);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(0);
    });

    it('answers an unknown (well-formed) program ID with PROGRAM_NOT_FOUND 10201 (HTTP 404)', async () => {
      const programId = await unusedProgramId(t);
      expectStandardFailure(await unsignedV3(`app=${programId}&kami=K&imei=D`), 404, CODES.PROGRAM_NOT_FOUND);
      expectStandardFailure(await v3({ app: programId, kami: 'K', imei: 'D' }), 404, CODES.PROGRAM_NOT_FOUND);
    });

    it.each(['1234567', '123456789', 'abcdefgh', '1234567x'])(
      'answers a malformed program ID %p with PROGRAM_NOT_FOUND 10201',
      async (app) => {
        expectStandardFailure(await unsignedV3(`app=${app}&kami=K&imei=D`), 404, CODES.PROGRAM_NOT_FOUND);
      },
    );

    it('applies the same app rules to the SDK login (JSON)', async () => {
      expectStandardFailure(await unsignedSdk({ card_key: 'K', machine_id: 'D' }), 400, CODES.APP_REQUIRED);
      expectStandardFailure(
        await unsignedSdk({ data: { app: project.program_id }, card_key: 'K', machine_id: 'D' }),
        400,
        CODES.APP_REQUIRED,
      );
      expectStandardFailure(await unsignedSdk({ app: 12345678, card_key: 'K', machine_id: 'D' }), 400, CODES.APP_REQUIRED);
      expectStandardFailure(await unsignedSdk({ app: project.program_id, data: 'cipher' }), 400, CODES.CIPHERTEXT_NOT_ALLOWED);
      expectStandardFailure(
        await unsignedSdk({ app: project.id, card_key: 'K', machine_id: 'D' }),
        400,
        CODES.INTERNAL_KEY_NOT_ACCEPTED,
      );
      expectStandardFailure(
        await unsignedSdk({ app: await unusedProgramId(t), card_key: 'K', machine_id: 'D' }),
        404,
        CODES.PROGRAM_NOT_FOUND,
      );
    });

    it('answers a known program sent unsigned with SIGNATURE_INVALID 10101 (the app rules passed)', async () => {
      const body = await v3Body();
      expectStandardFailure(await unsignedV3(new URLSearchParams(body).toString()), 401, CODES.SIGNATURE_INVALID);
      expectStandardFailure(await unsignedSdk(await sdkBody()), 401, CODES.SIGNATURE_INVALID);
    });

    it('writes no log row and touches no card for a request refused by the app rules or the signature', async () => {
      const card = await insertCard(t, project.id);
      const logsBefore = await cardRepos(t).logs.countBy({ projectId: project.id });
      const answers = [
        await unsignedV3(`kami=${card.code}&imei=D`),
        await unsignedV3(`app=${project.program_id}&data=x&kami=${card.code}&imei=D`),
        await unsignedV3(`app=${project.id}&kami=${card.code}&imei=D`),
        await unsignedV3(`app=${project.program_id}&kami=${card.code}&imei=D`),
        await v3({ app: project.program_id, kami: card.code, imei: 'D' }, { signature: 'ab'.repeat(32) }),
      ];
      for (const res of answers) expect(await cardRepos(t).logs.findBy({ requestId: res.headers['x-request-id'] })).toEqual([]);
      expect(await cardRepos(t).logs.countBy({ projectId: project.id })).toBe(logsBefore);
      const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
      expect({ status: stored.status, useCount: stored.useCount }).toEqual({ status: 'unused', useCount: 0 });
      expect(await cardRepos(t).devices.countBy({ cardId: card.id })).toBe(0);
    });
  });

  describe('signature (HMAC-SHA256 of METHOD\\nPATH\\nts\\nnonce\\nRAW_BODY with the api_secret)', () => {
    it('accepts a correctly signed V3 and SDK login', async () => {
      expect((await v3(await v3Body()).expect(200)).body).toMatchObject({ code: 0, success: true });
      expect((await sdk(await sdkBody()).expect(200)).body).toMatchObject({ code: 0, success: true });
    });

    it('accepts the signature hex in upper case', async () => {
      const raw = new URLSearchParams(await v3Body()).toString();
      const res = await handSigned(V3_LOGIN, FORM, raw, V3_LOGIN, (signature) => signature.toUpperCase());
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: 0, success: true });
    });

    it('answers a wrong signature with SIGNATURE_INVALID 10101 (HTTP 401)', async () => {
      expectStandardFailure(await v3(await v3Body(), { signature: 'ab'.repeat(32) }), 401, CODES.SIGNATURE_INVALID);
      expectStandardFailure(await sdk(await sdkBody(), { signature: 'not-hex-at-all' }), 401, CODES.SIGNATURE_INVALID);
    });

    it('answers a missing signature header with SIGNATURE_INVALID 10101', async () => {
      expectStandardFailure(await v3(await v3Body(), { omit: ['signature'] }), 401, CODES.SIGNATURE_INVALID);
      expectStandardFailure(await sdk(await sdkBody(), { omit: ['signature'] }), 401, CODES.SIGNATURE_INVALID);
    });

    it("answers a signature made with another project's api_secret with SIGNATURE_INVALID 10101", async () => {
      expectStandardFailure(await v3(await v3Body(), {}, other.api_secret), 401, CODES.SIGNATURE_INVALID);
      expectStandardFailure(await sdk(await sdkBody(), {}, other.api_secret), 401, CODES.SIGNATURE_INVALID);
    });

    it('answers a body altered after signing with SIGNATURE_INVALID 10101 and logs nobody in', async () => {
      const card = await insertCard(t, project.id);
      const signed = `app=${project.program_id}&kami=${card.code}&imei=dev-a`;
      const ts = String(now());
      const nonce = freshNonce();
      const signature = hmac(project.api_secret, V3_LOGIN, ts, nonce, signed);
      const altered = `app=${project.program_id}&kami=${card.code}&imei=dev-b`;
      expectStandardFailure(
        await rawPost(V3_LOGIN, FORM, altered, { timestamp: ts, nonce, signature }),
        401,
        CODES.SIGNATURE_INVALID,
      );
      // The same fields in another order are another raw body: the signature covers the bytes sent.
      const reordered = `imei=dev-a&kami=${card.code}&app=${project.program_id}`;
      expectStandardFailure(
        await rawPost(V3_LOGIN, FORM, reordered, { timestamp: ts, nonce, signature }),
        401,
        CODES.SIGNATURE_INVALID,
      );
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(0);
    });

    it('answers an SDK JSON body altered after signing (one extra space) with SIGNATURE_INVALID 10101', async () => {
      const body = await sdkBody();
      const signed = JSON.stringify(body);
      const ts = String(now());
      const nonce = freshNonce();
      const signature = hmac(project.api_secret, SDK_LOGIN, ts, nonce, signed);
      expectStandardFailure(
        await rawPost(SDK_LOGIN, JSON_TYPE, JSON.stringify(body, null, 1), { timestamp: ts, nonce, signature }),
        401,
        CODES.SIGNATURE_INVALID,
      );
    });

    it('answers a signature over another path, method, timestamp or nonce with SIGNATURE_INVALID 10101', async () => {
      const raw = new URLSearchParams(await v3Body()).toString();
      const ts = String(now());
      const nonce = freshNonce();
      const variants = [
        hmac(project.api_secret, SDK_LOGIN, ts, nonce, raw),
        hmac(project.api_secret, V3_LOGIN, ts, nonce, raw, 'GET'),
        hmac(project.api_secret, V3_LOGIN, String(Number(ts) - 1), nonce, raw),
        hmac(project.api_secret, V3_LOGIN, ts, `${nonce}x`, raw),
      ];
      for (const signature of variants) {
        expectStandardFailure(
          await rawPost(V3_LOGIN, FORM, raw, { timestamp: ts, nonce, signature }),
          401,
          CODES.SIGNATURE_INVALID,
        );
      }
    });

    it('signs the path without its query string', async () => {
      const raw = new URLSearchParams(await v3Body()).toString();
      const res = await handSigned(`${V3_LOGIN}?client=1.2`, FORM, raw, V3_LOGIN);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: 0, success: true });
    });

    it('after a rotation of api_secret, refuses the old secret (10101) and accepts the new one', async () => {
      const target = await author.createProject();
      expect((await v3(await v3Body(target), {}, target.api_secret).expect(200)).body.code).toBe(0);
      const rotated = await author.post(`/admin/v1/projects/${target.id}/secrets/api_secret/rotate`).expect(200);
      const fresh: string = rotated.body.value;
      expect(typeof fresh).toBe('string');
      expect(fresh).not.toBe(target.api_secret);
      expectStandardFailure(await v3(await v3Body(target), {}, target.api_secret), 401, CODES.SIGNATURE_INVALID);
      expectStandardFailure(await sdk(await sdkBody(target), {}, target.api_secret), 401, CODES.SIGNATURE_INVALID);
      expect((await v3(await v3Body(target), {}, fresh).expect(200)).body).toMatchObject({ code: 0, success: true });
      expect((await sdk(await sdkBody(target), {}, fresh).expect(200)).body).toMatchObject({ code: 0, success: true });
    });

    it('keeps the api_secret when another secret (legacy_secret) is rotated', async () => {
      const target = await author.createProject();
      await author.post(`/admin/v1/projects/${target.id}/secrets/legacy_secret/rotate`).expect(200);
      expect((await v3(await v3Body(target), {}, target.api_secret).expect(200)).body.code).toBe(0);
    });
  });

  describe('timestamp (±300 s)', () => {
    it('answers a timestamp 301 s old with TIMESTAMP_OUT_OF_WINDOW 10102 (HTTP 401)', async () => {
      expectStandardFailure(await v3(await v3Body(), { timestamp: now() - 301 }), 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
      expectStandardFailure(await sdk(await sdkBody(), { timestamp: now() - 301 }), 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
    });

    // 302, not 301: the server's clock may cross into the next second while the request travels, which
    // brings a future timestamp one second closer; a 301 s stamp then lands on 300 and is rightly accepted.
    it('answers a timestamp just over 300 s in the future with TIMESTAMP_OUT_OF_WINDOW 10102', async () => {
      expectStandardFailure(await v3(await v3Body(), { timestamp: now() + 302 }), 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
      expectStandardFailure(await sdk(await sdkBody(), { timestamp: now() + 302 }), 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
    });

    it('accepts a timestamp a little inside the window on either side (290 s)', async () => {
      expect((await v3(await v3Body(), { timestamp: now() - 290 }).expect(200)).body.code).toBe(0);
      expect((await v3(await v3Body(), { timestamp: now() + 290 }).expect(200)).body.code).toBe(0);
    });

    it('answers a request without the timestamp header (signed over an empty timestamp) with 10102', async () => {
      const raw = new URLSearchParams(await v3Body()).toString();
      const nonce = freshNonce();
      const res = await rawPost(V3_LOGIN, FORM, raw, { nonce, signature: hmac(project.api_secret, V3_LOGIN, '', nonce, raw) });
      expectStandardFailure(res, 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
    });

    it('answers a signed timestamp that is not Unix seconds (milliseconds, text, empty) with 10102', async () => {
      for (const ts of [String(Date.now()), 'yesterday', '']) {
        const raw = new URLSearchParams(await v3Body()).toString();
        const nonce = freshNonce();
        const res = await rawPost(V3_LOGIN, FORM, raw, {
          timestamp: ts,
          nonce,
          signature: hmac(project.api_secret, V3_LOGIN, ts, nonce, raw),
        });
        expectStandardFailure(res, 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
      }
    });
  });

  describe('nonce (8-96 of [A-Za-z0-9_.:-], remembered per program for 300 s)', () => {
    it('answers a replayed nonce with NONCE_REPLAYED 10103 (HTTP 409) and changes nothing', async () => {
      const nonce = freshNonce();
      const body = await v3Body();
      expect((await v3(body, { nonce }).expect(200)).body.code).toBe(0);
      const card = await cardRepos(t).cards.findOneByOrFail({ projectId: project.id, code: body.kami });
      const logsBefore = await cardRepos(t).logs.countBy({ cardId: card.id });
      const replay = await v3(body, { nonce });
      expectStandardFailure(replay, 409, CODES.NONCE_REPLAYED);
      expect(await cardRepos(t).logs.findBy({ requestId: replay.headers['x-request-id'] })).toEqual([]);
      expect(await cardRepos(t).logs.countBy({ cardId: card.id })).toBe(logsBefore);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(1);
    });

    it('answers a nonce replayed with another body (another card) with 10103', async () => {
      const nonce = freshNonce();
      expect((await v3(await v3Body(), { nonce }).expect(200)).body.code).toBe(0);
      expectStandardFailure(await v3(await v3Body(), { nonce }), 409, CODES.NONCE_REPLAYED);
    });

    it('shares one nonce space between V3 and the SDK of one program', async () => {
      const nonce = freshNonce();
      expect((await v3(await v3Body(), { nonce }).expect(200)).body.code).toBe(0);
      expectStandardFailure(await sdk(await sdkBody(), { nonce }), 409, CODES.NONCE_REPLAYED);
    });

    it('admits exactly one of 20 concurrent requests with one nonce; the other 19 get 409', async () => {
      const nonce = freshNonce();
      const body = await v3Body();
      const results = await Promise.all(Array.from({ length: 20 }, () => v3(body, { nonce })));
      const successes = results.filter((r) => r.status === 200 && r.body.code === 0);
      const replays = results.filter((r) => r.status === 409);
      expect(successes).toHaveLength(1);
      expect(replays).toHaveLength(19);
      for (const res of replays) expectStandardFailure(res, 409, CODES.NONCE_REPLAYED);
      const card = await cardRepos(t).cards.findOneByOrFail({ projectId: project.id, code: body.kami });
      expect(card.useCount).toBe(1);
    });

    it('accepts the same nonce on another program', async () => {
      const nonce = freshNonce();
      expect((await v3(await v3Body(), { nonce }).expect(200)).body.code).toBe(0);
      expect((await v3(await v3Body(other), { nonce }, other.api_secret).expect(200)).body.code).toBe(0);
    });

    it('answers a nonce of 7 characters with BAD_REQUEST 10001 (HTTP 400)', async () => {
      expectStandardFailure(await v3(await v3Body(), { nonce: 'abcdefg' }), 400, CODES.BAD_REQUEST);
      expectStandardFailure(await sdk(await sdkBody(), { nonce: 'abcdefg' }), 400, CODES.BAD_REQUEST);
    });

    it.each([
      ['97 characters', 'n'.repeat(97)],
      ['a slash', 'nonce/with/slash'],
      ['a plus', 'nonce+with+plus'],
    ])('answers a nonce with %s with BAD_REQUEST 10001', async (_label, nonce) => {
      expectStandardFailure(await v3(await v3Body(), { nonce }), 400, CODES.BAD_REQUEST);
    });

    it('answers a request without the nonce header (signed over an empty nonce) with BAD_REQUEST 10001', async () => {
      const raw = new URLSearchParams(await v3Body()).toString();
      const ts = String(now());
      const res = await rawPost(V3_LOGIN, FORM, raw, {
        timestamp: ts,
        signature: hmac(project.api_secret, V3_LOGIN, ts, '', raw),
      });
      expectStandardFailure(res, 400, CODES.BAD_REQUEST);
    });

    it('answers a request without the nonce header, signed over a nonce it does not send, with SIGNATURE_INVALID 10101', async () => {
      expectStandardFailure(await v3(await v3Body(), { omit: ['nonce'] }), 401, CODES.SIGNATURE_INVALID);
    });

    it('accepts nonces of exactly 8 and 96 characters using every allowed symbol', async () => {
      const short = `_.:-${randomBytes(2).toString('hex')}`;
      expect(short).toHaveLength(8);
      expect((await v3(await v3Body(), { nonce: short }).expect(200)).body.code).toBe(0);
      const long = `_.:-${randomBytes(8).toString('hex')}`.padEnd(96, 'aZ9');
      expect((await v3(await v3Body(), { nonce: long }).expect(200)).body.code).toBe(0);
    });

    it('does not use up the nonce of a request refused for its signature or timestamp', async () => {
      const nonce = freshNonce();
      expectStandardFailure(await v3(await v3Body(), { nonce, signature: 'ab'.repeat(32) }), 401, CODES.SIGNATURE_INVALID);
      expectStandardFailure(await v3(await v3Body(), { nonce, timestamp: now() - 400 }), 401, CODES.TIMESTAMP_OUT_OF_WINDOW);
      expect((await v3(await v3Body(), { nonce }).expect(200)).body.code).toBe(0);
    });
  });

  describe('content types and methods', () => {
    it('answers V3 with a JSON body with UNSUPPORTED_MEDIA_TYPE 10007 (HTTP 415)', async () => {
      const res = await handSigned(V3_LOGIN, JSON_TYPE, JSON.stringify(await v3Body()), V3_LOGIN);
      expectStandardFailure(res, 415, CODES.UNSUPPORTED_MEDIA_TYPE);
    });

    it('answers the SDK with a form body with UNSUPPORTED_MEDIA_TYPE 10007 (HTTP 415)', async () => {
      const res = await handSigned(SDK_LOGIN, FORM, new URLSearchParams(await sdkBody()).toString(), SDK_LOGIN);
      expectStandardFailure(res, 415, CODES.UNSUPPORTED_MEDIA_TYPE);
    });

    it('checks the content type before the app rules: a JSON body without app on V3 is 415, not 10004', async () => {
      expectStandardFailure(
        await rawPost(V3_LOGIN, JSON_TYPE, JSON.stringify({ kami: 'K', imei: 'D' })),
        415,
        CODES.UNSUPPORTED_MEDIA_TYPE,
      );
      expectStandardFailure(await rawPost(SDK_LOGIN, FORM, 'card_key=K&machine_id=D'), 415, CODES.UNSUPPORTED_MEDIA_TYPE);
    });

    it('answers an unknown path under /api/legacy/v3 and /api/v1 with a JSON 404 in the standard envelope, never HTML', async () => {
      for (const path of ['/api/legacy/v3/cards/logon', '/api/v1/cards/nothing']) {
        const res = await t.http().post(path).type('form').send('app=12345678');
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expectStandardFailure(res, 404, CODES.NOT_FOUND);
      }
    });

    it('answers V3 with a text/plain body or no body with HTTP 415 or 400, in the standard envelope', async () => {
      const plain = await rawPost(V3_LOGIN, 'text/plain', `app=${project.program_id}&kami=K&imei=D`);
      expect(plain.status).toBe(415);
      expectStandardFailure(plain, 415, CODES.UNSUPPORTED_MEDIA_TYPE);
      const empty = await t.http().post(V3_LOGIN);
      expect([400, 415]).toContain(empty.status);
      expect(empty.body).toMatchObject({ success: false, request_id: empty.headers['x-request-id'] });
    });

    it('accepts a form content type that names a charset', async () => {
      const raw = new URLSearchParams(await v3Body()).toString();
      const res = await handSigned(V3_LOGIN, `${FORM}; charset=UTF-8`, raw, V3_LOGIN);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
    });

    it.each(['get', 'put', 'delete', 'patch'] as const)(
      'answers %s on the V3 login with a JSON 405 (10002) and Allow: POST, never HTML',
      async (method) => {
        const res = await t.http()[method](V3_LOGIN);
        expect(res.headers['content-type']).not.toMatch(/html/);
        expect(res.headers.allow).toBe('POST');
        expect(res.headers.location).toBeUndefined();
        expectStandardFailure(res, 405, CODES.METHOD_NOT_ALLOWED);
      },
    );

    it('answers HEAD on the V3 login with 405 and Allow: POST, logging nobody in', async () => {
      const card = await insertCard(t, project.id);
      const res = await t.http().head(`${V3_LOGIN}?app=${project.program_id}&kami=${card.code}&imei=head`);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(0);
    });

    it.each([SDK_LOGIN, '/api/v1/cards/heartbeat'])('answers GET on %s with a JSON 405 and Allow: POST', async (path) => {
      const res = await t.http().get(path);
      expect(res.headers.allow).toBe('POST');
      expectStandardFailure(res, 405, CODES.METHOD_NOT_ALLOWED);
    });
  });

  describe('envelope of failures', () => {
    it('echoes an incoming X-Request-Id in the failure body and header', async () => {
      const requestId = `std-auth-${Date.now()}`;
      const res = await t.http().post(V3_LOGIN).set('X-Request-Id', requestId).type('form').send('kami=K&imei=D');
      expectStandardFailure(res, 400, CODES.APP_REQUIRED);
      expect(res.body.request_id).toBe(requestId);
    });

    it('gives every failure its own request id', async () => {
      const a = await unsignedV3('kami=K&imei=D');
      const b = await unsignedV3('kami=K&imei=D');
      expect(a.body.request_id).not.toBe(b.body.request_id);
    });
  });
});
