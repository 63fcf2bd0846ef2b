import { createHash, createPublicKey, verify } from 'node:crypto';
import type { Response } from 'supertest';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { md5SignedFields, sealLegacyRequest } from '../../../sdk/src';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, CODES, SDK_LOGIN, V3_LOGIN } from '../../support/standard';
import { TestApp } from '../../support/test-app';
import { buildWorld } from '../../support/world';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;
interface Published {
  kid: string;
  public_key: string;
  status: string;
  retire_at: string | null;
}

/** What the client sent: `sent` is what REQUEST_DIGEST hashes, the body as sent or a GET's query string. */
interface Sent {
  method: string;
  path: string;
  nonce: string;
  sent: string;
}

/**
 * Checks an answer's Ed25519 signature (decisions §17) the way a client does, written here
 * independently of the service: over the exact bytes received, the request's nonce and path, and
 * the digest of what the client sent.
 */
function verifies(
  res: Response,
  keys: Published[],
  request: Sent,
  tamper: Partial<{ body: Buffer; status: number; path: string; nonce: string; sent: string }> = {},
): boolean {
  const kid = res.headers['x-svc-response-key'];
  const timestamp = res.headers['x-svc-response-timestamp'];
  const signature = res.headers['x-svc-response-signature'];
  const key = keys.find((k) => k.kid === kid);
  if (!key || !timestamp || !signature) return false;
  const body = tamper.body ?? Buffer.from(res.text, 'utf8');
  const digest = createHash('sha256')
    .update(tamper.sent ?? request.sent, 'utf8')
    .digest('hex');
  const head = `svc-response-v2\n${request.method}\n${tamper.path ?? request.path}\n${tamper.nonce ?? request.nonce}\n${timestamp}\n${tamper.status ?? res.status}\n${digest}\n`;
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.public_key }, format: 'jwk' });
  return verify(null, Buffer.concat([Buffer.from(head, 'utf8'), body]), publicKey, Buffer.from(signature, 'base64url'));
}

describe('signed answers and offline licences (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  let keys: Published[];

  const publishedKeys = async (p: Project): Promise<Published[]> =>
    (await author.get(`/admin/v1/projects/${p.id}/signing-keys`).expect(200)).body.items;
  const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const form = (path: string, fields: Record<string, string>) => t.http().post(path).type('form').send(encode(fields));

  beforeAll(async () => {
    ({ t, admin, author, project } = await buildWorld({ connect: true }));
    keys = await publishedKeys(project);
  });
  afterAll(() => t.close());

  it('publishes one active Ed25519 key per project, its kid derived from the public key, and no private part', async () => {
    expect(keys).toEqual([
      {
        kid: expect.stringMatching(/^[0-9a-f]{16}$/),
        public_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        status: 'active',
        created_at: expect.any(String),
        retire_at: null,
      },
    ]);
    const raw = Buffer.from(keys[0].public_key, 'base64url');
    expect(raw).toHaveLength(32);
    expect(keys[0].kid).toBe(createHash('sha256').update(raw).digest('hex').slice(0, 16));
  });

  describe('every family signs its successes and refusals over the exact bytes sent and received', () => {
    const expectSigned = (res: Response, request: Sent) => {
      expect(res.headers['x-svc-response-version']).toBe('2');
      expect(verifies(res, keys, request)).toBe(true);
      // What a relay does: the same nonce, another request (one byte more) to the service.
      expect(verifies(res, keys, request, { sent: `${request.sent} ` })).toBe(false);
      const flipped = Buffer.from(res.text, 'utf8');
      flipped[flipped.length - 2] ^= 0x01;
      expect(verifies(res, keys, request, { body: flipped })).toBe(false);
      expect(verifies(res, keys, request, { status: res.status === 200 ? 201 : 200 })).toBe(false);
      expect(verifies(res, keys, request, { path: `${request.path}x` })).toBe(false);
      expect(verifies(res, keys, request, { nonce: `${request.nonce}x` })).toBe(false);
    };

    it('Connect and /conncet, with the nonce field', async () => {
      const card = await insertCard(t, project.id);
      const path = `/connect/${project.program_id}`;
      const sent = { user_key: card.code, serial: 'dev-c', nonce: 'connect-nonce-1' };
      const ok = await form(path, sent).expect(200);
      expect(ok.body.status).toBe(true);
      expectSigned(ok, { method: 'POST', path, nonce: 'connect-nonce-1', sent: encode(sent) });
      const wrong = { user_key: 'NO-SUCH', serial: 'dev-c', nonce: 'connect-nonce-2' };
      const refused = await form(`/conncet/${project.program_id}`, wrong).expect(200);
      expect(refused.body.code).toBe(-CODES.CARD_INVALID);
      expectSigned(refused, {
        method: 'POST',
        path: `/conncet/${project.program_id}`,
        nonce: 'connect-nonce-2',
        sent: encode(wrong),
      });
    });

    it('V3 and SDK, with X-Svc-Nonce, and the card heartbeat (the session program)', async () => {
      const card = await insertCard(t, project.id);
      const v3Fields = { app: project.program_id, kami: card.code, imei: 'dev-s' };
      const v3 = await signedPost(t, V3_LOGIN, v3Fields, 'form', project.api_secret, { nonce: 'v3-nonce-0001' });
      expect(v3.body.code).toBe(0);
      expectSigned(v3, { method: 'POST', path: V3_LOGIN, nonce: 'v3-nonce-0001', sent: encode(v3Fields) });
      const sdkFields = { app: project.program_id, card_key: card.code, machine_id: 'dev-s' };
      const sdk = await signedPost(t, SDK_LOGIN, sdkFields, 'json', project.api_secret, { nonce: 'sdk-nonce-0001' });
      expect(sdk.body.success).toBe(true);
      expectSigned(sdk, { method: 'POST', path: SDK_LOGIN, nonce: 'sdk-nonce-0001', sent: JSON.stringify(sdkFields) });
      const otherDevice = { ...sdkFields, machine_id: 'other-device' };
      const refused = await signedPost(t, SDK_LOGIN, otherDevice, 'json', project.api_secret, { nonce: 'sdk-nonce-0002' });
      expect(refused.body.code).toBe(CODES.DEVICE_LIMIT_REACHED);
      expectSigned(refused, { method: 'POST', path: SDK_LOGIN, nonce: 'sdk-nonce-0002', sent: JSON.stringify(otherDevice) });
      const beat = await cardHeartbeat(t, sdk.body.data.session_token, 'dev-s').expect(200);
      expectSigned(beat, {
        method: 'POST',
        path: '/api/v1/cards/heartbeat',
        nonce: '',
        sent: JSON.stringify({ machine_id: 'dev-s' }),
      });
      const wrongMachine = await cardHeartbeat(t, sdk.body.data.session_token, 'elsewhere');
      expect(wrongMachine.body.success).toBe(false);
      expectSigned(wrongMachine, {
        method: 'POST',
        path: '/api/v1/cards/heartbeat',
        nonce: '',
        sent: JSON.stringify({ machine_id: 'elsewhere' }),
      });
    });

    it('program users: login and the user heartbeat (the session program), refusals too', async () => {
      const user = {
        app: project.program_id,
        username: `signed-${Date.now()}`,
        password: 'Passw0rd-signed',
        machine_id: 'dev-u',
      };
      expect(
        (await signedPost(t, '/api/v1/users/register', user, 'json', project.api_secret, { nonce: 'user-nonce-0001' })).body
          .success,
      ).toBe(true);
      const login = await signedPost(t, '/api/v1/users/login', user, 'json', project.api_secret, { nonce: 'user-nonce-0002' });
      expect(login.body.success).toBe(true);
      expectSigned(login, { method: 'POST', path: '/api/v1/users/login', nonce: 'user-nonce-0002', sent: JSON.stringify(user) });
      const beat = (machine: string) =>
        t
          .http()
          .post('/api/v1/users/heartbeat')
          .set('Authorization', `Bearer ${login.body.data.session_token}`)
          .send({ machine_id: machine });
      const ok = await beat('dev-u').expect(200);
      expect(ok.body.success).toBe(true);
      expectSigned(ok, {
        method: 'POST',
        path: '/api/v1/users/heartbeat',
        nonce: '',
        sent: JSON.stringify({ machine_id: 'dev-u' }),
      });
      const wrongMachine = await beat('elsewhere');
      expect(wrongMachine.body.success).toBe(false);
      expectSigned(wrongMachine, {
        method: 'POST',
        path: '/api/v1/users/heartbeat',
        nonce: '',
        sent: JSON.stringify({ machine_id: 'elsewhere' }),
      });
    });

    it('legacy routes, with an optional nonce field', async () => {
      const card = await insertCard(t, project.id);
      const login = { app: project.program_id, kami: card.code, imei: 'dev-l', nonce: 'legacy-nonce' };
      const ok = await form('/api/kmlogon', login).expect(200);
      expect(ok.body.code).toBe(1);
      expectSigned(ok, { method: 'POST', path: '/api/kmlogon', nonce: 'legacy-nonce', sent: encode(login) });
      const unbound = { app: project.program_id, kami: card.code, imei: 'not-bound' };
      const check = await form('/api/check', unbound).expect(200);
      expect(check.body.code).toBe(CODES.DEVICE_NOT_BOUND);
      expectSigned(check, { method: 'POST', path: '/api/check', nonce: '', sent: encode(unbound) });
      // A GET has no body: its raw query string (without `?`) is what is digested.
      const query = `app=${project.program_id}&nonce=q-nonce`;
      const notice = await t.http().get(`/api/announcement?${query}`).expect(200);
      expectSigned(notice, { method: 'GET', path: '/api/announcement', nonce: 'q-nonce', sent: query });
      const paycheck = `app=${project.program_id}&kami=${card.code}`;
      const paid = await t.http().get(`/api/paycheck?${paycheck}`).expect(200);
      expect(paid.body.code).toBe(1);
      expectSigned(paid, { method: 'GET', path: '/api/paycheck', nonce: '', sent: paycheck });
    });

    it.each(['rc4', 'aes'])(
      'the legacy aggregate under %s transport encryption: the form as sent, ciphertext and all',
      async (mode) => {
        const sealed = await author.createProject({ transport_encryption: mode });
        const sealedKeys = await publishedKeys(sealed);
        const card = await insertCard(t, sealed.id);
        const fields = md5SignedFields(
          { api: 'card_login', app: sealed.program_id, kami: card.code, imei: 'dev-t', nonce: 'sealed-nonce' },
          sealed.legacy_secret,
        );
        const sent = encode({
          app: sealed.program_id,
          data: sealLegacyRequest({ mode: mode as 'rc4' | 'aes', key: sealed.transport_key }, fields),
        });
        const res = await t.http().post('/api/app').type('form').send(sent).expect(200);
        expect(res.body.code).toBe(1);
        // The nonce travels inside the ciphertext, which the signing does not open: REQUEST_NONCE is empty.
        expect(verifies(res, sealedKeys, { method: 'POST', path: '/api/app', nonce: '', sent })).toBe(true);
        const otherCiphertext = sent.replace(/data=(.)/, (_all, first: string) => `data=${first === 'A' ? 'B' : 'A'}`);
        expect(verifies(res, sealedKeys, { method: 'POST', path: '/api/app', nonce: '', sent: otherCiphertext })).toBe(false);
      },
    );
  });

  it('binds the answer to the card sent: the same nonce relayed with another valid card verifies only for what the service received', async () => {
    const typed = { user_key: 'MADE-UP-CARD-KEY', serial: 'cracked-pc', nonce: 'relay-nonce-1' };
    const relayed = { ...typed, user_key: (await insertCard(t, project.id)).code };
    const path = `/connect/${project.program_id}`;
    const res = await form(path, relayed).expect(200);
    expect(res.body.status).toBe(true);
    expect(verifies(res, keys, { method: 'POST', path, nonce: typed.nonce, sent: encode(relayed) })).toBe(true);
    expect(verifies(res, keys, { method: 'POST', path, nonce: typed.nonce, sent: encode(typed) })).toBe(false);
  });

  it('signs nothing before the program is known, and nothing for a program with response_signing off', async () => {
    const unknown = await form('/connect/99999999', { user_key: 'x', serial: 'y' });
    expect(unknown.headers['x-svc-response-signature']).toBeUndefined();
    const quiet = await author.createProject({ response_signing: false });
    const res = await form('/api/kmlogon', { app: quiet.program_id, kami: 'NOPE', imei: 'd' }).expect(200);
    expect(res.body.code).toBe(CODES.CARD_INVALID);
    expect(res.headers['x-svc-response-signature']).toBeUndefined();
  });

  it('rotates: new answers carry the new key, the old one stays listed until retire_at, a retired one is gone', async () => {
    const p = await author.createProject();
    const [first] = await publishedKeys(p);
    const rotated = (await author.post(`/admin/v1/projects/${p.id}/signing-keys/rotate`, {}).expect(200)).body;
    expect(rotated).toMatchObject({ status: 'active', retire_at: null });
    const listed = await publishedKeys(p);
    expect(listed.map((k) => [k.kid, k.status])).toEqual([
      [rotated.kid, 'active'],
      [first.kid, 'retiring'],
    ]);
    expect(Date.parse(listed[1].retire_at!) - Date.now()).toBeGreaterThan(6.9 * 86400_000);
    const res = await form('/api/kmlogon', { app: p.program_id, kami: 'NOPE', imei: 'd' });
    expect(res.headers['x-svc-response-key']).toBe(rotated.kid);
    expect(
      verifies(res, listed, {
        method: 'POST',
        path: '/api/kmlogon',
        nonce: '',
        sent: encode({ app: p.program_id, kami: 'NOPE', imei: 'd' }),
      }),
    ).toBe(true);
    const again = (await author.post(`/admin/v1/projects/${p.id}/signing-keys/rotate`, { retire_after_seconds: 0 }).expect(200))
      .body;
    expect((await publishedKeys(p)).map((k) => k.kid)).toEqual([again.kid, first.kid]);
    // Another author's project is not found.
    const other = (await admin.createAuthor()).client;
    await other.get(`/admin/v1/projects/${p.id}/signing-keys`).expect(404);
  });

  it('keeps exactly one active key under racing rotations and racing first uses', async () => {
    const p = await author.createProject();
    const rotations = await Promise.all(
      Array.from({ length: 8 }, () => author.post(`/admin/v1/projects/${p.id}/signing-keys/rotate`, {})),
    );
    expect(rotations.map((r) => r.status)).toEqual(Array(8).fill(200));
    const statuses = async (id: string) =>
      (await cardRepos(t).cards.manager.query(
        'SELECT status, count(*)::int AS n FROM signing_keys WHERE project_id = $1 GROUP BY status ORDER BY status',
        [id],
      )) as Array<{ status: string; n: number }>;
    expect(await statuses(p.id)).toEqual([
      { status: 'active', n: 1 },
      { status: 'retiring', n: 8 },
    ]);
    // A project older than signing: its key is made on first need, once, however many ask at once.
    const older = await author.createProject();
    await cardRepos(t).cards.manager.query('DELETE FROM signing_keys WHERE project_id = $1', [older.id]);
    await Promise.all([
      ...Array.from({ length: 4 }, () => author.get(`/admin/v1/projects/${older.id}/signing-keys`).expect(200)),
      ...Array.from({ length: 4 }, () => form('/api/kmlogon', { app: older.program_id, kami: 'NOPE', imei: 'd' })),
    ]);
    expect(await statuses(older.id)).toEqual([{ status: 'active', n: 1 }]);
  });

  describe('offline licences (POST /api/v1/cards/checkout)', () => {
    const checkout = (p: Project, body: Record<string, unknown>) =>
      signedPost(t, '/api/v1/cards/checkout', { app: p.program_id, ...body } as Record<string, string>, 'json', p.api_secret);
    const decode = (licence: string) => {
      const [payload, signature] = licence.split('.');
      return {
        payload: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')),
        signed: Buffer.from(`svc-licence-v1.${payload}`),
        signature: Buffer.from(signature, 'base64url'),
      };
    };

    it('is refused with CHECKOUT_DISABLED while offline_grace_seconds is 0 (the default)', async () => {
      const card = await insertCard(t, project.id);
      const res = await checkout(project, { card_key: card.code, machine_id: 'dev' });
      expect(res.body).toMatchObject({ success: false, code: CODES.CHECKOUT_DISABLED });
    });

    it('issues a licence for a bound device that verifies offline, never past the card expiry, and takes no use', async () => {
      const p = await author.createProject({ offline_grace_seconds: 7 * 86400 });
      const expiresAt = new Date(Date.now() + 2 * 86400_000);
      const card = await insertCard(t, p.id, { status: 'active', activatedAt: new Date(), expiresAt, useCount: 3 });
      await cardRepos(t).devices.insert({ cardId: card.id, machineCode: 'laptop', boundAt: new Date() });
      const res = await checkout(p, { card_key: card.code, machine_id: 'laptop' }).expect(200);
      expect(res.body).toMatchObject({
        code: 0,
        success: true,
        data: { licence: expect.any(String), kid: expect.any(String), expires_at: expect.any(String) },
      });
      const [key] = await publishedKeys(p);
      const { payload, signed, signature } = decode(res.body.data.licence);
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.public_key }, format: 'jwk' });
      expect(verify(null, signed, publicKey, signature)).toBe(true);
      expect(payload).toEqual({
        v: 1,
        program_id: p.program_id,
        card_id: card.id,
        card_code_sha256: createHash('sha256').update(card.code).digest('hex'),
        machine_id: 'laptop',
        kid: key.kid,
        issued_at: expect.any(Number),
        valid_until: Math.floor(expiresAt.getTime() / 1000),
        card_expires_at: Math.floor(expiresAt.getTime() / 1000),
        features: [],
        trial: false,
      });
      const short = decode(
        (await checkout(p, { card_key: card.code, machine_id: 'laptop', ttl_seconds: 600 }).expect(200)).body.data.licence,
      ).payload;
      expect(short.valid_until - short.issued_at).toBe(600);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).useCount).toBe(3);
    });

    it('refuses an unbound device, an unused, banned or expired card, and an unknown one', async () => {
      const p = await author.createProject({ offline_grace_seconds: 3600 });
      const active = await insertCard(t, p.id, {
        status: 'active',
        activatedAt: new Date(),
        expiresAt: new Date(Date.now() + 86400_000),
      });
      const banned = await insertCard(t, p.id, { status: 'banned' });
      const expired = await insertCard(t, p.id, {
        status: 'active',
        activatedAt: new Date(0),
        expiresAt: new Date(Date.now() - 1000),
      });
      const unused = await insertCard(t, p.id);
      const codeOf = async (card_key: string) => (await checkout(p, { card_key, machine_id: 'dev' })).body.code;
      expect(await codeOf(active.code)).toBe(CODES.DEVICE_NOT_BOUND);
      expect(await codeOf(unused.code)).toBe(CODES.DEVICE_NOT_BOUND);
      expect(await codeOf(banned.code)).toBe(CODES.CARD_BANNED);
      expect(await codeOf(expired.code)).toBe(CODES.CARD_EXPIRED);
      expect(await codeOf('NO-SUCH-CARD')).toBe(CODES.CARD_INVALID);
    });
  });

  it('never shows a private key: not in any admin answer, export or log line', async () => {
    const views = JSON.stringify([
      (await author.get(`/admin/v1/projects/${project.id}`).expect(200)).body,
      await publishedKeys(project),
    ]);
    const stored = await cardRepos(t).cards.manager.query('SELECT private_key_enc FROM signing_keys WHERE project_id = $1', [
      project.id,
    ]);
    for (const { private_key_enc: secret } of stored) {
      expect(views).not.toContain(secret);
      expect(t.logs.join('\n')).not.toContain(secret);
    }
    expect(views).not.toMatch(/private/i);
    expect(t.logs.join('\n')).not.toMatch(/PRIVATE KEY/);
  });
});
