import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { md5Sign } from '../../../sdk/src';
import { DailyQuota } from '../../../src/access/daily-quota';
import { PreparedStatements } from '../../../src/database/prepared-statements';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { itInOneWindow } from '../../support/failure-window';
import { connectLogin, logRowsOf, openConnectInEveryMode } from '../../support/connect';
import { signedPost } from '../../support/signing';
import { SessionsService } from '../../../src/sessions/sessions.service';
import { CARD_HEARTBEAT, cardHeartbeat, CODES, SDK_LOGIN, V3_LOGIN } from '../../support/standard';
import { ADMIN_PASSWORD, startTestApp, TestApp, unique, uniqueAddress } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/** Each numbered finding of the first hardening review, through the real HTTP stack. */
describe('hardening (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  /** A client address of its own (X-Forwarded-For), so that the per-address limits of tests do not meet. */
  const newAddress = uniqueAddress;
  const adminName = unique('hardening');

  beforeAll(async () => {
    t = await startTestApp(
      { TRANSPORT_FAILURES_PER_MINUTE: '5', ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '3', ADMIN_USERNAME: adminName },
      { clientAddress: uniqueAddress() },
    );
    admin = await AdminClient.asPlatformAdmin(t, adminName);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    await openConnectInEveryMode(t, project.id);
    await admin
      .put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: true, daily_quota: 1000 })
      .expect(200);
  });
  afterAll(() => t.close());

  const quotaUsed = (p: Project, name = 'card_login') => t.app.get(DailyQuota).used(`${p.id}:${name}`);
  const form = (path: string, body: string, address = newAddress()) =>
    t.http().post(path).set('X-Forwarded-For', address).type('form').send(body);

  function expectBadRequest(
    res: Response,
    family: 'connect' | 'standard' | 'legacy' | 'admin',
    status = 400,
    code: number = CODES.BAD_REQUEST,
  ): void {
    expect(res.status).toBe(status);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    const body = res.body;
    if (family === 'connect') expect(body).toMatchObject({ status: false, code: -code, request_id: res.headers['x-request-id'] });
    if (family === 'standard') expect(body).toMatchObject({ success: false, code, request_id: res.headers['x-request-id'] });
    if (family === 'legacy') expect(body).toMatchObject({ code, request_id: res.headers['x-request-id'] });
    if (family === 'admin') expect(body).toMatchObject({ error: { code }, request_id: res.headers['x-request-id'] });
  }

  describe('1. control characters and broken encodings never reach the database', () => {
    it('refuses a NUL byte on every client family with BAD_REQUEST, no log row and no quota spent', async () => {
      const card = await insertCard(t, project.id);
      const app = project.program_id;
      const probes: Array<[Response, 'connect' | 'standard' | 'legacy']> = [
        [await form(`/connect/${app}`, `user_key=${card.code}%00&serial=dev`), 'connect'],
        [await form(`/conncet/${app}`, `user_key=${card.code}&serial=d%00ev`), 'connect'],
        [await form('/api/kmlogon', `app=${app}&kami=${card.code}&imei=a%00b`), 'legacy'],
        [await form('/api/check', `app=${app}&kami=%00&imei=x`), 'legacy'],
        [await form('/api/paycheck', `app=${app}&kami=%00`), 'legacy'],
        [await form('/api/kmunmachine', `app=${app}&kami=${card.code}&imei=%00`), 'legacy'],
        [await signedPost(t, V3_LOGIN, { app, kami: card.code, imei: 'dev\u0000' }, 'form', project.api_secret), 'standard'],
        [
          await signedPost(t, SDK_LOGIN, { app, card_key: `${card.code}\u0000`, machine_id: 'dev' }, 'json', project.api_secret),
          'standard',
        ],
      ];
      for (const [res, family] of probes) {
        expectBadRequest(res, family);
        expect(await logRowsOf(t, res.headers['x-request-id'])).toEqual([]);
      }
      expect(await quotaUsed(project)).toBe(0);
      expect(await cardRepos(t).cards.findOneByOrFail({ id: card.id })).toMatchObject({ status: 'unused', useCount: 0 });
    });

    it('refuses a NUL byte, an unpaired surrogate or a broken escape across the admin API', async () => {
      const base = `/admin/v1/projects/${project.id}`;
      expectBadRequest(await author.post('/admin/v1/projects', { name: 'bad\u0000name' }), 'admin');
      const surrogate = await t
        .http()
        .post('/admin/v1/projects')
        .set(author.auth())
        .type('json')
        .send('{"name":"lone \\ud800 surrogate"}');
      expectBadRequest(surrogate, 'admin');
      expectBadRequest(await author.get(`${base}/cards?q=%00`), 'admin');
      expectBadRequest(await author.get(`${base}/cards?q=%FF`), 'admin');
      expectBadRequest(await author.get(`${base}/logs?machine_code=%00`), 'admin');
      expectBadRequest(
        await t.http().post('/admin/v1/auth/login').send({ username: 'ad\u0000min', password: ADMIN_PASSWORD }),
        'admin',
      );
      const names = (await author.get('/admin/v1/projects?page_size=100').expect(200)).body.items.map(
        (p: { name: string }) => p.name,
      );
      expect(names.filter((n: string) => /bad|lone/.test(n))).toEqual([]);
    });

    it('keeps the database connection usable after a statement it refuses: the next request of any tenant succeeds', async () => {
      const dataSource = t.app.get(DataSource);
      for (let i = 0; i < 5; i++) {
        await expect(dataSource.query('SELECT $1::text', ['refused \u0000 byte'])).rejects.toThrow();
        await author.get('/admin/v1/projects').expect(200);
        await admin.get('/admin/v1/authors').expect(200);
      }
    });

    it('reads paging as decimal only', async () => {
      expectBadRequest(await author.get('/admin/v1/projects?page=0x10'), 'admin');
      expectBadRequest(await author.get('/admin/v1/projects?page_size=1e1'), 'admin');
      expect((await author.get('/admin/v1/projects?page=16').expect(200)).body.page).toBe(16);
    });
  });

  describe('2. the AES transport is no padding oracle', () => {
    const aesKey = (key: string) => createHash('sha256').update(key, 'utf8').digest();
    const cbc = (key: string, plain: Buffer, iv = randomBytes(16)) => {
      const cipher = createCipheriv('aes-256-cbc', aesKey(key), iv);
      return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
    };
    const gcm = (key: string, plain: Buffer) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', aesKey(key), iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]);
    };
    const signedFields = (p: Project, fields: Record<string, string>) => {
      const withT = { ...fields, t: String(Math.floor(Date.now() / 1000)) };
      return new URLSearchParams({ ...withT, sign: md5Sign({ ...withT, app: p.program_id }, p.legacy_secret) }).toString();
    };
    const send = (p: Project, data: Buffer | string, address: string) =>
      form(
        '/api/legacy/v1/app',
        new URLSearchParams({ app: p.program_id, data: typeof data === 'string' ? data : data.toString('base64') }).toString(),
        address,
      );
    const answer = (res: Response) => ({
      status: res.status,
      code: res.body.code,
      msg: res.body.msg,
      keys: Object.keys(res.body).sort(),
    });

    let aes: Project;
    beforeAll(async () => {
      aes = await author.createProject({ transport_encryption: 'aes' });
      await openConnectInEveryMode(t, aes.id);
    });

    it('answers every kind of ciphertext that does not open into a signed request identically, and changes nothing', async () => {
      const card = await insertCard(t, aes.id);
      const good = cbc(aes.transport_key, Buffer.from(signedFields(aes, { api: 'card_login', kami: card.code, imei: 'dev' })));
      const flipped = Buffer.from(good);
      flipped[flipped.length - 17] ^= 0x01; // the last block's padding byte through CBC: bad padding
      const tampered = signedFields(aes, { api: 'card_login', kami: card.code, imei: 'dev' }).replace('imei=dev', 'imei=other');
      const probes = [
        cbc('not-the-transport-key', Buffer.from('api=notice')),
        flipped,
        good.subarray(0, 32), // IV and one block: padding almost surely invalid
        cbc(aes.transport_key, randomBytes(40)), // valid padding, garbage plaintext
        cbc(aes.transport_key, Buffer.from('api=no_such_action')),
        cbc(aes.transport_key, Buffer.from(tampered)), // decrypts fine, signature does not verify
        cbc(aes.transport_key, Buffer.from([0xff, 0xfe, 0x3d])), // not UTF-8
        'not base64 at all!',
      ];
      const answers = [];
      for (const data of probes) answers.push(answer(await send(aes, data, newAddress())));
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0]).toEqual({
        status: 400,
        code: CODES.BAD_REQUEST,
        msg: expect.any(String),
        keys: ['code', 'details', 'msg', 'request_id'],
      });
      expect(await cardRepos(t).cards.findOneByOrFail({ id: card.id })).toMatchObject({ status: 'unused', useCount: 0 });
      // The captured request itself still works.
      expect((await send(aes, good, newAddress())).body.code).toBe(1);
    });

    itInOneWindow(
      'rate-limits repeated failures from one address with RATE_LIMITED and Retry-After, other addresses unaffected',
      async () => {
        const address = newAddress();
        for (let i = 0; i < 5; i++)
          expect((await send(aes, cbc('wrong-key', Buffer.from('api=notice')), address)).status).toBe(400);
        const limited = await send(aes, cbc(aes.transport_key, Buffer.from('api=notice')), address);
        expectBadRequest(limited, 'legacy', 429, CODES.RATE_LIMITED);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect((await send(aes, cbc(aes.transport_key, Buffer.from('api=notice')), newAddress())).body.code).toBe(1);
      },
    );

    it('offers authenticated aes-gcm: a round trip works, one flipped byte is the same single failure', async () => {
      const gcmProject = await author.createProject({ transport_encryption: 'aes-gcm' });
      await openConnectInEveryMode(t, gcmProject.id);
      const card = await insertCard(t, gcmProject.id);
      const sealed = gcm(
        gcmProject.transport_key,
        Buffer.from(signedFields(gcmProject, { api: 'card_login', kami: card.code, imei: 'gcm-dev' })),
      );
      const flipped = Buffer.from(sealed);
      flipped[20] ^= 0x01;
      const refused = await send(gcmProject, flipped, newAddress());
      expectBadRequest(refused, 'legacy');
      const ok = await send(gcmProject, sealed, newAddress());
      expect(ok.body.code).toBe(1);
      expect(typeof ok.body.data).toBe('string');
    });
  });

  describe('3. depth and size are bounded before any transformation', () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    it('refuses JSON nested 100,000 deep with BAD_REQUEST, before authentication too', async () => {
      expectBadRequest(await t.http().post(SDK_LOGIN).type('json').send(deep), 'standard');
      expectBadRequest(await t.http().post('/admin/v1/projects').set(author.auth()).type('json').send(deep), 'admin');
      expectBadRequest(await t.http().post('/admin/v1/auth/login').type('json').send(deep), 'admin');
    });
  });

  describe('7. admin login is throttled per account and per address', () => {
    const attempt = (username: string, password: string, address: string) =>
      t.http().post('/admin/v1/auth/login').set('X-Forwarded-For', address).send({ username, password });

    itInOneWindow('stops many usernames guessed from one address', async () => {
      const address = newAddress();
      for (let i = 0; i < 3; i++) expect((await attempt(unique('nobody'), 'wrong-password', address)).status).toBe(401);
      expectBadRequest(await attempt(unique('nobody'), 'wrong-password', address), 'admin', 429, CODES.RATE_LIMITED);
      expect((await attempt(adminName, ADMIN_PASSWORD, newAddress())).status).toBe(200);
    });

    itInOneWindow('stops one account guessed from many addresses, even with the right password', async () => {
      const victim = await admin.createAuthor();
      for (let i = 0; i < 3; i++) expect((await attempt(victim.username, 'wrong-password', newAddress())).status).toBe(401);
      const limited = await attempt(victim.username, victim.password, newAddress());
      expectBadRequest(limited, 'admin', 429, CODES.RATE_LIMITED);
      expect(limited.body.token).toBeUndefined();
    });
  });

  describe('8. one body type per route, on every family', () => {
    it('answers 415 for a form body on the SDK heartbeat, JSON on Connect (whatever the program), and text on the admin API', async () => {
      expectBadRequest(
        await t
          .http()
          .post(CARD_HEARTBEAT)
          .set('Authorization', `Bearer ${'x'.repeat(43)}`)
          .type('form')
          .send('machine_id=dev'),
        'standard',
        415,
        CODES.UNSUPPORTED_MEDIA_TYPE,
      );
      expectBadRequest(
        await t.http().post('/connect/not-a-program').send({ user_key: 'k', serial: 's' }),
        'connect',
        415,
        CODES.UNSUPPORTED_MEDIA_TYPE,
      );
      expectBadRequest(
        await t.http().post('/admin/v1/projects').set(author.auth()).type('text').send('name=x'),
        'admin',
        415,
        CODES.UNSUPPORTED_MEDIA_TYPE,
      );
      // An admin request without a body needs no content type.
      await author.get('/admin/v1/projects').expect(200);
    });
  });

  describe('quotas and the login log on a platform fault', () => {
    it('gives the quota unit back and still writes the login-log row when the database fails a card login', async () => {
      const card = await insertCard(t, project.id);
      const before = await quotaUsed(project);
      const statements = t.app.get(PreparedStatements);
      const spy = jest.spyOn(statements, 'rows').mockRejectedValueOnce(new Error('connection lost'));
      try {
        const res = await connectLogin(t, project.program_id, { user_key: card.code, serial: 'fault-dev' });
        expect(res.status).toBe(500);
        expect(res.body).toMatchObject({ status: false, code: -CODES.SYSTEM_ERROR, error_id: expect.any(String) });
        expect((await logRowsOf(t, res.headers['x-request-id'])).map((r) => r.resultCode)).toEqual([CODES.SYSTEM_ERROR]);
      } finally {
        spy.mockRestore();
      }
      expect(await quotaUsed(project)).toBe(before);
      const ok = await connectLogin(t, project.program_id, { user_key: card.code, serial: 'fault-dev' }).expect(200);
      expect(ok.body.status).toBe(true);
      expect(await quotaUsed(project)).toBe(before + 1);
    });

    it('gives the card heartbeat its quota unit back when the database fails the renewal', async () => {
      await admin
        .put(`/admin/v1/projects/${project.id}/interfaces/card_heartbeat`, { authorized: true, daily_quota: 1000 })
        .expect(200);
      const card = await insertCard(t, project.id);
      const login = await signedPost(
        t,
        SDK_LOGIN,
        { app: project.program_id, card_key: card.code, machine_id: 'beat-dev' },
        'json',
        project.api_secret,
      );
      expect(login.body.success).toBe(true);
      const token: string = login.body.data.session_token;
      const before = await quotaUsed(project, 'card_heartbeat');
      const spy = jest.spyOn(t.app.get(SessionsService), 'renew').mockRejectedValueOnce(new Error('connection lost'));
      try {
        const res = await cardHeartbeat(t, token, 'beat-dev');
        expect(res.status).toBe(500);
        expect(res.body).toMatchObject({ success: false, code: CODES.SYSTEM_ERROR, error_id: expect.any(String) });
      } finally {
        spy.mockRestore();
      }
      expect(await quotaUsed(project, 'card_heartbeat')).toBe(before);
      expect((await cardHeartbeat(t, token, 'beat-dev').expect(200)).body.success).toBe(true);
      expect(await quotaUsed(project, 'card_heartbeat')).toBe(before + 1);
    });
  });
});
