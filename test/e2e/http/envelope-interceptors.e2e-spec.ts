import type { Response } from 'supertest';
import { DailyQuota } from '../../../src/access/daily-quota';
import {
  ConnectEnvelopeInterceptor,
  LegacyEnvelopeInterceptor,
  StandardEnvelopeInterceptor,
} from '../../../src/http/envelope/envelope.interceptors';
import { PreparedStatements } from '../../../src/database/prepared-statements';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { connectLogin, openConnectInEveryMode } from '../../support/connect';
import { CODES, v3Login } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;
type Interceptor = typeof ConnectEnvelopeInterceptor | typeof StandardEnvelopeInterceptor | typeof LegacyEnvelopeInterceptor;

/**
 * Each client family's success envelope comes from its NestJS interceptor (`@UseInterceptors` on
 * the family's controllers): the envelope with the family's code and the request id, HTTP 200 for
 * a POST, Connect's renames, and a platform fault giving back the quota unit the request took.
 */
describe('envelope interceptors (e2e)', () => {
  let t: TestApp;
  let author: AdminClient;
  let project: Project;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    await openConnectInEveryMode(t, project.id);
    await admin
      .put(`/admin/v1/projects/${project.id}/interfaces/card_login`, { authorized: true, daily_quota: 1000 })
      .expect(200);
    await author
      .put(`/admin/v1/projects/${project.id}/connect/customization`, { field_names: { status: 'ok', token: 'licence' } })
      .expect(200);
  });
  afterAll(() => t.close());

  const quotaUsed = () => t.app.get(DailyQuota).used(`${project.id}:card_login`);

  /** The family's card login of a fresh card on `device`. */
  const LOGINS: Record<string, (code: string, device: string) => PromiseLike<Response>> = {
    connect: (code, device) => connectLogin(t, project.program_id, { user_key: code, serial: device }),
    standard: (code, device) => v3Login(t, project.api_secret, { app: project.program_id, kami: code, imei: device }),
    legacy: (code, device) =>
      t
        .http()
        .post('/api/kmlogon')
        .type('form')
        .send(new URLSearchParams({ app: project.program_id, kami: code, imei: device }).toString()),
  };

  /** Runs `call`, counting how often `interceptor` intercepted a request meanwhile. */
  async function through<T>(interceptor: Interceptor, call: () => PromiseLike<T>): Promise<{ result: T; intercepted: number }> {
    const spy = jest.spyOn(interceptor.prototype, 'intercept');
    try {
      const result = await call();
      return { result, intercepted: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  describe('Connect: ConnectEnvelopeInterceptor', () => {
    it('answers a login 200 in the Connect envelope, with the program renames at the top level and in data', async () => {
      const card = await insertCard(t, project.id);
      const { result: res, intercepted } = await through(ConnectEnvelopeInterceptor, () => LOGINS.connect(card.code, 'dev-c'));
      expect(intercepted).toBe(1);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, code: 1, reason: expect.any(String), request_id: res.headers['x-request-id'] });
      expect(res.body.data.licence).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.body).not.toHaveProperty('status');
      expect(res.body.data).not.toHaveProperty('token');
    });
  });

  describe('standard: StandardEnvelopeInterceptor', () => {
    it('answers a V3 login 200 in the standard envelope, its extras at the top level', async () => {
      const card = await insertCard(t, project.id);
      const { result: res, intercepted } = await through(StandardEnvelopeInterceptor, () => LOGINS.standard(card.code, 'dev-s'));
      expect(intercepted).toBe(1);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        code: 0,
        success: true,
        msg: expect.any(String),
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        statecode: 'active',
        data: { id: card.id, code: card.code, machine_code: 'dev-s' },
        request_id: res.headers['x-request-id'],
      });
    });
  });

  describe('legacy: LegacyEnvelopeInterceptor', () => {
    it('answers /api/kmlogon 200 in the legacy envelope with code 1', async () => {
      const card = await insertCard(t, project.id);
      const { result: res, intercepted } = await through(LegacyEnvelopeInterceptor, () => LOGINS.legacy(card.code, 'dev-l'));
      expect(intercepted).toBe(1);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'msg', 'request_id']);
      expect(res.body).toMatchObject({
        code: 1,
        data: { id: card.id, machine_code: 'dev-l' },
        request_id: res.headers['x-request-id'],
      });
    });
  });

  describe.each([
    ['connect', ConnectEnvelopeInterceptor, { ok: false, code: -CODES.SYSTEM_ERROR }],
    ['standard', StandardEnvelopeInterceptor, { success: false, code: CODES.SYSTEM_ERROR }],
    ['legacy', LegacyEnvelopeInterceptor, { code: CODES.SYSTEM_ERROR }],
  ] as const)('%s: a platform fault', (family, interceptor, failure) => {
    it('gives back the quota unit the login took, and the filter answers SYSTEM_ERROR in the envelope', async () => {
      const card = await insertCard(t, project.id);
      const before = await quotaUsed();
      const spy = jest.spyOn(t.app.get(PreparedStatements), 'rows').mockRejectedValueOnce(new Error('connection lost'));
      try {
        const { result: res, intercepted } = await through(interceptor, () => LOGINS[family](card.code, `fault-${family}`));
        expect(intercepted).toBe(1);
        expect(res.status).toBe(500);
        expect(res.body).toMatchObject({ ...failure, error_id: expect.any(String), request_id: res.headers['x-request-id'] });
      } finally {
        spy.mockRestore();
      }
      expect(await quotaUsed()).toBe(before);
      expect((await LOGINS[family](card.code, `fault-${family}`)).status).toBe(200);
      expect(await quotaUsed()).toBe(before + 1);
    });
  });
});
