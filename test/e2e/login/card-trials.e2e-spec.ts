import { createHash, createPublicKey, verify } from 'node:crypto';
import type { Response } from 'supertest';
import { verifyLicence } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import {
  BAD_REQUEST,
  CARD_TYPE_DISABLED,
  CARD_TYPE_IN_USE,
  CARD_TYPE_NOT_FOUND,
  expectAdminError,
} from '../../support/admin-errors';
import { cardRepos, insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { md5Signed } from '../../support/legacy';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, CODES, expectStandardFailure, sdkLogin, TIMESTAMP, v3Login } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

const TRIAL_TYPE = {
  name: 'Trial',
  kind: 'time',
  duration_seconds: 3 * 86400,
  device_limit: 1,
  features: ['trial.basic'],
  price_cents: 0,
};
const TRIAL = '/api/v1/cards/trial';

/** Trials (decisions §21): one card per device per project for ever, on every database and adapter. */
describe('trial cards (decisions §21, e2e)', () => {
  let t: TestApp;
  let a: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await AdminClient.asPlatformAdmin(t);
    a = (await admin.createAuthor()).client;
  });
  afterAll(() => t.close());

  const types = (p: { id: string }) => `/admin/v1/projects/${p.id}/card-types`;
  const createType = async (p: { id: string }, body: object = {}) =>
    (await a.post(types(p), { ...TRIAL_TYPE, ...body }).expect(201)).body;
  /** A project whose trials are on, from a type of its own. */
  const trialProject = async (fields: object = {}, type: object = {}) => {
    const p = await a.createProject(fields);
    const made = await createType(p, type);
    await a.patch(`/admin/v1/projects/${p.id}`, { trial_card_type_id: made.id }).expect(200);
    return { p, typeId: made.id as number };
  };
  const trial = (on: TestApp, p: Project, machine_id: string) =>
    signedPost(on, TRIAL, { app: p.program_id, machine_id }, 'json', p.api_secret);
  const trialCards = (p: Project) => cardRepos(t).cards.findBy({ projectId: p.id, trial: true });

  describe('the project setting trial_card_type_id', () => {
    it("takes a type of the project, refuses another project's, a disabled one and bad values, and null turns trials off", async () => {
      const p = await a.createProject();
      const other = await a.createProject();
      const own = await createType(p);
      const foreign = await createType(other);
      const disabled = await createType(p, { name: 'Off', enabled: false });
      const settings = (body: object) => a.patch(`/admin/v1/projects/${p.id}`, body);
      expect((await settings({ trial_card_type_id: own.id }).expect(200)).body.trial_card_type_id).toBe(own.id);
      expectAdminError(await settings({ trial_card_type_id: foreign.id }), 404, CARD_TYPE_NOT_FOUND, 'trial_card_type_id');
      expectAdminError(await settings({ trial_card_type_id: 999999 }), 404, CARD_TYPE_NOT_FOUND, 'trial_card_type_id');
      expectAdminError(await settings({ trial_card_type_id: disabled.id }), 409, CARD_TYPE_DISABLED, 'trial_card_type_id');
      for (const bad of [0, -1, 1.5, 'x', true])
        expectAdminError(await settings({ trial_card_type_id: bad }), 400, BAD_REQUEST, 'trial_card_type_id');
      expect((await a.get(`/admin/v1/projects/${p.id}`).expect(200)).body.trial_card_type_id).toBe(own.id);
      // The trial type is a type in use.
      expectAdminError(await a.delete(`${types(p)}/${own.id}`), 409, CARD_TYPE_IN_USE);
      expect((await settings({ trial_card_type_id: null }).expect(200)).body.trial_card_type_id).toBeNull();
      await a.delete(`${types(p)}/${own.id}`).expect(204);
      // A new project has no type yet: any id is another project's.
      expectAdminError(
        await a.post('/admin/v1/projects', { name: 'New', trial_card_type_id: foreign.id }),
        404,
        CARD_TYPE_NOT_FOUND,
        'trial_card_type_id',
      );
      expect((await a.createProject()).trial_card_type_id).toBeNull();
    });
  });

  describe('POST /api/v1/cards/trial', () => {
    it('gives a device one card of the trial type, bound to it, signed; a repeat answers the same card', async () => {
      const { p, typeId } = await trialProject();
      const nonce = 'trial-nonce-0001';
      const first = await signedPost(t, TRIAL, { app: p.program_id, machine_id: 'trial-pc' }, 'json', p.api_secret, {
        nonce,
      }).expect(200);
      expect(first.body).toMatchObject({ code: 0, success: true });
      expect(first.body.data).toEqual({
        code: expect.any(String),
        expires_at: expect.stringMatching(TIMESTAMP),
        expires_at_iso: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
        machine_code: 'trial-pc',
        trial: true,
        features: ['trial.basic'],
      });
      expect(first.headers['x-svc-response-version']).toBe('2');
      expect(await signedBy(a, p, first, nonce, JSON.stringify({ app: p.program_id, machine_id: 'trial-pc' }))).toBe(true);
      expect(await signedBy(a, p, first, nonce, JSON.stringify({ app: p.program_id, machine_id: 'other-pc' }))).toBe(false);

      const card = await cardRepos(t).cards.findOneByOrFail({ projectId: p.id, code: first.body.data.code });
      expect(card).toMatchObject({ trial: true, status: 'active', cardTypeId: typeId, deviceLimit: 1 });
      expect(Math.abs(card.expiresAt!.getTime() - Date.now() - 3 * 86400_000)).toBeLessThan(60_000);
      expect((await cardRepos(t).devices.findBy({ cardId: card.id })).map((d) => d.machineCode)).toEqual(['trial-pc']);

      expect((await trial(t, p, 'trial-pc').expect(200)).body.data).toEqual(first.body.data);
      // Bound already: the card logs in on that device and no other (device limit 1).
      expect(
        (await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: card.code, machine_id: 'trial-pc' }).expect(200)).body
          .code,
      ).toBe(0);
      expect(
        (await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: card.code, machine_id: 'other-pc' }).expect(200)).body
          .code,
      ).toBe(CODES.DEVICE_LIMIT_REACHED);
    });

    it('answers TRIAL_USED once the card expired, was used up, banned or deleted', async () => {
      const { p } = await trialProject({}, { kind: 'count', uses: 1, duration_seconds: 3600 });
      const codeOf = async (machine: string) => (await trial(t, p, machine).expect(200)).body.data.code as string;
      const used = (res: Response) => expectStandardFailure(res, 200, CODES.TRIAL_USED);

      const expired = await codeOf('expires');
      await cardRepos(t).cards.update({ code: expired }, { expiresAt: new Date(Date.now() - 1000) });
      used(await trial(t, p, 'expires'));

      const spent = await codeOf('spends');
      await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: spent, machine_id: 'spends' }).expect(200);
      used(await trial(t, p, 'spends'));

      const banned = await codeOf('banned');
      await cardRepos(t).cards.update({ code: banned }, { status: 'banned' });
      used(await trial(t, p, 'banned'));

      const deleted = await codeOf('deleted');
      await cardRepos(t).cards.delete({ code: deleted });
      used(await trial(t, p, 'deleted'));
      expect(await trialCards(p)).toHaveLength(3);
    });

    it('20 concurrent requests from one device make one card; from 20 devices, 20', async () => {
      const { p } = await trialProject();
      const same = await Promise.all(Array.from({ length: 20 }, () => trial(t, p, 'racer')));
      expect(same.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(same.map((r) => r.body.data?.code)).size).toBe(1);
      expect(await trialCards(p)).toHaveLength(1);

      const many = await Promise.all(Array.from({ length: 20 }, (_, i) => trial(t, p, `device-${i}`)));
      expect(many.every((r) => r.status === 200 && r.body.code === 0)).toBe(true);
      expect(new Set(many.map((r) => r.body.data.code)).size).toBe(20);
      expect(await trialCards(p)).toHaveLength(21);
      expect((await a.get(`/admin/v1/projects/${p.id}/usage`).expect(200)).body.trials).toBe(21);
    });

    it('refuses while trials are off, behind the card_trial interface gate, and bad input, making no card', async () => {
      const p = await a.createProject();
      const off = await trial(t, p, 'pc');
      expectStandardFailure(off, 403, CODES.INTERFACE_NOT_AUTHORIZED);
      expect(off.body.msg).toMatch(/trial/i);
      const { p: gated } = await trialProject();
      const admin = await AdminClient.asPlatformAdmin(t);
      const gate = (body: object) => admin.put(`/admin/v1/projects/${gated.id}/interfaces/card_trial`, body).expect(200);
      await gate({ authorized: false, daily_quota: null });
      expectStandardFailure(await trial(t, gated, 'pc'), 403, CODES.INTERFACE_NOT_AUTHORIZED);
      await gate({ authorized: true, daily_quota: 1 });
      expect((await trial(t, gated, 'pc-1').expect(200)).body.code).toBe(0);
      expectStandardFailure(await trial(t, gated, 'pc-2'), 429, CODES.QUOTA_EXCEEDED);
      await gate({ authorized: true, daily_quota: null });
      expectStandardFailure(
        await signedPost(t, TRIAL, { app: gated.program_id }, 'json', gated.api_secret),
        400,
        CODES.BAD_REQUEST,
      );
      expectStandardFailure(
        await signedPost(t, TRIAL, { app: gated.program_id, machine_id: 'pc-3' }, 'json', 'wrong-secret'),
        401,
        CODES.SIGNATURE_INVALID,
      );
      expect(await trialCards(gated)).toHaveLength(1);
      // A disabled trial type stops trials like no type.
      await a
        .patch(`${types(gated)}/${(await a.get(`/admin/v1/projects/${gated.id}`).expect(200)).body.trial_card_type_id}`, {
          enabled: false,
        })
        .expect(200);
      expectStandardFailure(await trial(t, gated, 'pc-4'), 403, CODES.INTERFACE_NOT_AUTHORIZED);
      expect(await trialCards(gated)).toHaveLength(1);
    });
  });

  describe('every answer about a trial card says trial: true', () => {
    let p: Project;
    let plain: string;

    beforeAll(async () => {
      ({ p } = await trialProject({ offline_grace_seconds: 86400 }, { device_limit: 1 }));
      await openConnectInEveryMode(t, p.id);
      plain = (await insertCard(t, p.id, { deviceLimit: 20 })).code;
    });
    const trialCode = async (machine: string) => (await trial(t, p, machine).expect(200)).body.data.code as string;
    const legacy = (path: string, fields: Record<string, string>) =>
      t
        .http()
        .post(path)
        .type('form')
        .send(new URLSearchParams(md5Signed({ app: p.program_id, ...fields }, p.legacy_secret)).toString())
        .expect(200);

    const logins: Array<[string, (code: string, machine: string) => Promise<Record<string, unknown>>]> = [
      [
        'Connect',
        async (code, machine) => (await connectLogin(t, p.program_id, { user_key: code, serial: machine }).expect(200)).body.data,
      ],
      [
        'V3',
        async (code, machine) =>
          (await v3Login(t, p.api_secret, { app: p.program_id, kami: code, imei: machine }).expect(200)).body.data,
      ],
      [
        'SDK',
        async (code, machine) =>
          (await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: code, machine_id: machine }).expect(200)).body.data,
      ],
      ['/api/kmlogon', async (code, machine) => (await legacy('/api/kmlogon', { kami: code, imei: machine })).body.data],
      ['/api/card_login', async (code, machine) => (await legacy('/api/card_login', { kami: code, imei: machine })).body.data],
      [
        '/api/app card_login',
        async (code, machine) => (await legacy('/api/app', { api: 'card_login', kami: code, imei: machine })).body.data,
      ],
    ];

    it.each(logins)('%s login: trial true for the trial card (twice), false for another', async (family, login) => {
      const machine = `login-${family}`;
      const code = await trialCode(machine);
      expect(await login(code, machine)).toMatchObject({ trial: true, features: ['trial.basic'] });
      expect(await login(code, machine)).toMatchObject({ trial: true });
      expect(await login(plain, machine)).toMatchObject({ trial: false, features: [] });
    });

    it('the locked login path, heartbeat, info, /api/check and the offline licence say it too', async () => {
      const code = await trialCode('hb');
      const login = await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: code, machine_id: 'hb' }).expect(200);
      expect(login.body.data.trial).toBe(true);
      expect((await cardHeartbeat(t, login.body.data.session_token, 'hb').expect(200)).body.data).toMatchObject({
        trial: true,
        features: ['trial.basic'],
      });
      const info = (card_key: string) =>
        signedPost(t, '/api/v1/cards/info', { app: p.program_id, card_key }, 'json', p.api_secret).expect(200);
      expect((await info(code)).body.data).toMatchObject({ trial: true, status: 'active' });
      expect((await info(plain)).body.data.trial).toBe(false);
      expect((await legacy('/api/check', { kami: code, imei: 'hb' })).body).toMatchObject({
        code: 1,
        data: { trial: true, device_bound: true },
      });

      const checkout = await signedPost(
        t,
        '/api/v1/cards/checkout',
        { app: p.program_id, card_key: code, machine_id: 'hb' },
        'json',
        p.api_secret,
      ).expect(200);
      const keys = Object.fromEntries(
        (await a.get(`/admin/v1/projects/${p.id}/signing-keys`).expect(200)).body.items.map(
          (k: { kid: string; public_key: string }) => [k.kid, k.public_key],
        ),
      );
      const check = verifyLicence(checkout.body.data.licence, { keys, machineId: 'hb', programId: p.program_id, cardKey: code });
      if (!check.valid) throw new Error(check.reason);
      expect(check.payload).toMatchObject({ trial: true, features: ['trial.basic'] });

      // A card with seats logs in on the locked path.
      const seated = await trialProject({}, { concurrent_limit: 1 });
      const seatedCode = (await trial(t, seated.p, 'seat').expect(200)).body.data.code;
      expect(
        (
          await sdkLogin(t, seated.p.api_secret, { app: seated.p.program_id, card_key: seatedCode, machine_id: 'seat' }).expect(
            200,
          )
        ).body.data.trial,
      ).toBe(true);
    });
  });

  const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  (shared ? it : it.skip)(
    'two instances sharing PostgreSQL and Redis racing one device make one card (20 requests, split)',
    async () => {
      const two = await startTestApp({}, { shareWith: t });
      try {
        const { p } = await trialProject();
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => trial(i % 2 === 0 ? t : two, p, 'shared-pc')));
        expect(results.map((r) => r.body.code)).toEqual(Array(20).fill(0));
        expect(new Set(results.map((r) => r.body.data.code)).size).toBe(1);
        expect(await trialCards(p)).toHaveLength(1);
        const split = await Promise.all(Array.from({ length: 20 }, (_, i) => trial(i % 2 === 0 ? t : two, p, `split-${i % 10}`)));
        expect(split.map((r) => r.body.code)).toEqual(Array(20).fill(0));
        expect(await trialCards(p)).toHaveLength(11);
      } finally {
        await two.close();
      }
    },
  );
});

/** The answer's Ed25519 signature (decisions §17) checked with the project's published key, independently of the service. */
async function signedBy(a: AdminClient, p: Project, res: Response, nonce: string, sent: string): Promise<boolean> {
  const keys: Array<{ kid: string; public_key: string }> = (await a.get(`/admin/v1/projects/${p.id}/signing-keys`).expect(200))
    .body.items;
  const key = keys.find((k) => k.kid === res.headers['x-svc-response-key']);
  if (!key) return false;
  const digest = createHash('sha256').update(sent, 'utf8').digest('hex');
  const head = `svc-response-v2\nPOST\n${TRIAL}\n${nonce}\n${res.headers['x-svc-response-timestamp']}\n${res.status}\n${digest}\n`;
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.public_key }, format: 'jwk' });
  return verify(
    null,
    Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(res.text, 'utf8')]),
    publicKey,
    Buffer.from(res.headers['x-svc-response-signature'], 'base64url'),
  );
}
