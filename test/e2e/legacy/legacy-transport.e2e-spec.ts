import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AdminClient } from '../../support/admin-client';
import { cardRepos, insertCard } from '../../support/cards';
import { signedPost } from '../../support/signing';
import { CODES, V3_LOGIN } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';
import { md5Sign } from '../../../sdk/src';
import { expectLegacyFailure } from '../../support/legacy';

/** RC4, written here independently of the service (KSA + PRGA). */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) % 256;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) % 256;
    j = (j + s[i]) % 256;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) % 256];
  }
  return out;
}

const aesKey = (key: string) => createHash('sha256').update(key, 'utf8').digest();

function aesEncrypt(key: string, plain: Buffer): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', aesKey(key), iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
}

function aesDecrypt(key: string, data: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-cbc', aesKey(key), data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
}

type Mode = 'rc4' | 'aes';
const seal = (mode: Mode, key: string, fields: Record<string, string>) => {
  const plain = Buffer.from(new URLSearchParams(fields).toString(), 'utf8');
  return (mode === 'rc4' ? rc4(Buffer.from(key, 'utf8'), plain) : aesEncrypt(key, plain)).toString('base64');
};
const open = (mode: Mode, key: string, data: string) => {
  const cipher = Buffer.from(data, 'base64');
  return JSON.parse((mode === 'rc4' ? rc4(Buffer.from(key, 'utf8'), cipher) : aesDecrypt(key, cipher)).toString('utf8'));
};

/** Signs the decrypted fields plus the clear `app` (the service's documented rule). */
function signedInner(app: string, fields: Record<string, string>, secret: string): Record<string, string> {
  const withT = { ...fields, t: String(Math.floor(Date.now() / 1000)) };
  return { ...withT, sign: md5Sign({ ...withT, app }, secret) };
}

describe('legacy family: transport encryption of the aggregate entry (e2e)', () => {
  let t: TestApp;
  let author: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  const post = (fields: Record<string, string>, path = '/api/app') =>
    t.http().post(path).type('form').send(new URLSearchParams(fields).toString());

  it('the test RC4 matches the published vector Key/Plaintext → bbf316e8d940af0ad3', () => {
    expect(rc4(Buffer.from('Key'), Buffer.from('Plaintext')).toString('hex')).toBe('bbf316e8d940af0ad3');
  });

  describe.each(['rc4', 'aes'] as const)('%s', (mode) => {
    let project: Awaited<ReturnType<AdminClient['createProject']>>;
    beforeAll(async () => {
      project = await author.createProject({ transport_encryption: mode });
    });

    it('logs a card in: encrypted signed fields in, encrypted data out', async () => {
      const card = await insertCard(t, project.id);
      const inner = signedInner(
        project.program_id,
        { api: 'card_login', kami: card.code, imei: `${mode}-dev` },
        project.legacy_secret,
      );
      const res = await post({ app: project.program_id, data: seal(mode, project.transport_key, inner) }).expect(200);
      expect(res.body).toStrictEqual({
        code: 1,
        msg: expect.any(String),
        data: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
      expect(open(mode, project.transport_key, res.body.data)).toEqual({
        token: expect.any(String),
        id: card.id,
        code: card.code,
        machine_code: `${mode}-dev`,
        expires_at: expect.any(String),
        expires_at_iso: expect.any(String),
        device_limit: 1,
        features: [],
        trial: false,
      });
    });

    it('answers an unsigned action (alias notice) with sealed data on the canonical path', async () => {
      const res = await post(
        { app: project.program_id, data: seal(mode, project.transport_key, { api: 'notice' }) },
        '/api/legacy/v1/app',
      ).expect(200);
      expect(res.body.code).toBe(1);
      expect(typeof open(mode, project.transport_key, res.body.data)).toBe('object');
    });

    it('refuses undecryptable data with BAD_REQUEST and changes nothing', async () => {
      const card = await insertCard(t, project.id);
      const inner = signedInner(project.program_id, { api: 'card_login', kami: card.code, imei: 'x' }, project.legacy_secret);
      const wrongKey = seal(mode, 'not-the-transport-key', inner);
      expectLegacyFailure(await post({ app: project.program_id, data: wrongKey }), 400, CODES.BAD_REQUEST);
      expectLegacyFailure(await post({ app: project.program_id, data: '%%%not base64%%%' }), 400, CODES.BAD_REQUEST);
      expectLegacyFailure(
        await post({ app: project.program_id, data: Buffer.from('short').toString('base64') }),
        400,
        CODES.BAD_REQUEST,
      );
      const stored = await cardRepos(t).cards.findOneByOrFail({ id: card.id });
      expect(stored.status).toBe('unused');
      expect(await cardRepos(t).logs.countBy({ cardCode: card.code })).toBe(0);
    });

    it('refuses plain fields without data with BAD_REQUEST', async () => {
      const card = await insertCard(t, project.id);
      const fields = signedInner(project.program_id, { api: 'card_login', kami: card.code, imei: 'x' }, project.legacy_secret);
      expectLegacyFailure(await post({ app: project.program_id, ...fields }), 400, CODES.BAD_REQUEST);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).status).toBe('unused');
    });

    it('checks the MD5 signature over the decrypted fields plus app (a failure is the one transport failure, no oracle)', async () => {
      const card = await insertCard(t, project.id);
      const inner = signedInner(project.program_id, { api: 'card_login', kami: card.code, imei: 'sig' }, project.legacy_secret);
      const tampered = { ...inner, imei: 'sig-other' };
      expectLegacyFailure(
        await post({ app: project.program_id, data: seal(mode, project.transport_key, tampered) }),
        400,
        CODES.BAD_REQUEST,
      );
      const { app: _app, ...noApp } = { ...inner, app: '' };
      const signedWithoutApp = { ...noApp, sign: md5Sign({ ...noApp, sign: '' }, project.legacy_secret) };
      expectLegacyFailure(
        await post({ app: project.program_id, data: seal(mode, project.transport_key, signedWithoutApp) }),
        400,
        CODES.BAD_REQUEST,
      );
      // The same signed fields sent in clear to a program without encryption name the failure.
      const clear = await author.createProject({ transport_encryption: 'none' });
      const clearTampered = {
        ...signedInner(clear.program_id, { api: 'notice' }, clear.legacy_secret),
        api: 'card_login',
        kami: card.code,
        imei: 'x',
      };
      expectLegacyFailure(await post({ app: clear.program_id, ...clearTampered }), 401, CODES.SIGNATURE_INVALID);
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).status).toBe('unused');
    });

    it('refuses an app inside data that differs from the clear app', async () => {
      const inner = { api: 'notice', app: '12345678' };
      expectLegacyFailure(
        await post({ app: project.program_id, data: seal(mode, project.transport_key, inner) }),
        400,
        CODES.BAD_REQUEST,
      );
    });

    it('never decrypts a V3 request: data there is CIPHERTEXT_NOT_ALLOWED', async () => {
      const card = await insertCard(t, project.id);
      const data = seal(mode, project.transport_key, { kami: card.code, imei: 'v3' });
      const res = await signedPost(t, V3_LOGIN, { app: project.program_id, data }, 'form', project.api_secret);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: CODES.CIPHERTEXT_NOT_ALLOWED, success: false });
      expect((await cardRepos(t).cards.findOneByOrFail({ id: card.id })).status).toBe('unused');
    });
  });

  it('reads plain fields when the project uses no transport encryption', async () => {
    const project = await author.createProject({ transport_encryption: 'none' });
    const res = await post({ app: project.program_id, api: 'notice' }).expect(200);
    expect(res.body).toMatchObject({ code: 1, data: expect.any(Object) });
  });
});
