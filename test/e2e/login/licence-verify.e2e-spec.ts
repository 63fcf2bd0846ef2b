import type { Response } from 'supertest';
import { AdminClient } from '../../support/admin-client';
import { withPlatformInterface, withPlatformSettings } from '../../support/platform-state';
import { startTestApp, TestApp } from '../../support/test-app';
import { ErrorCode } from '../../../sdk/src';

/** Catalog codes (decisions §2). */
const {
  BAD_REQUEST,
  METHOD_NOT_ALLOWED,
  APP_REQUIRED,
  INTERNAL_KEY_NOT_ACCEPTED,
  UNSUPPORTED_MEDIA_TYPE,
  PROGRAM_NOT_FOUND,
  PROGRAM_DISABLED,
  AUTHOR_DISABLED,
  VERIFICATION_SWITCH_OFF,
  INTERFACE_NOT_AUTHORIZED,
  INTERFACE_DISABLED,
  QUOTA_EXCEEDED,
  SITE_NOT_AUTHORIZED,
  BLACKLISTED,
  IP_NOT_BOUND,
} = ErrorCode;

const PROJECTS = '/admin/v1/projects';
/** supertest reaches the app over loopback: this is the socket address the service sees. */
const LOOPBACK = '127.0.0.1';
const FORGED_IP = '203.0.113.9';

type Project = Awaited<ReturnType<AdminClient['createProject']>>;
type Author = Awaited<ReturnType<AdminClient['createAuthor']>>;

function expectVerifyFailure(res: Response, http: number, code: number): void {
  expect({ http: res.status, code: res.body?.code }).toEqual({ http, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(typeof res.body.msg).toBe('string');
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
  expect(res.body.data).toBeUndefined();
}

function expectVerified(res: Response, domain: string, site: string, expiresAt: string | null = null): void {
  expect({ http: res.status, code: res.body?.code, msg: res.body?.msg }).toEqual({ http: 200, code: 1, msg: 'Site authorized' });
  expect(res.body.data).toEqual({
    domain,
    authorized: true,
    site: { domain: site, expires_at: expiresAt },
    server_time: expect.any(Number),
  });
  expect(Math.abs(res.body.data.server_time - Date.now() / 1000)).toBeLessThan(60);
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
}

/** A platform admin, an author and helpers to set up verification programs in one running app. */
class World {
  constructor(
    readonly t: TestApp,
    readonly admin: AdminClient,
    readonly author: Author,
  ) {}

  static async start(t: TestApp, authorFields: Record<string, unknown> = {}): Promise<World> {
    const admin = await AdminClient.asPlatformAdmin(t);
    return new World(t, admin, await admin.createAuthor(authorFields));
  }

  /** A project of `owner` with the licence_verify entitlement and the given authorized sites. */
  async program(
    sites: Array<Record<string, unknown>> = [{ domain: 'shop.example.com' }],
    owner: AdminClient = this.author.client,
  ): Promise<Project> {
    const project = await owner.createProject();
    await this.admin.patch(`${PROJECTS}/${project.id}`, { licence_verify: true }).expect(200);
    for (const site of sites) await owner.post(`${PROJECTS}/${project.id}/sites`, site).expect(201);
    return project;
  }

  verify(project: Project | string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
    const app = typeof project === 'string' ? project : project.program_id;
    return this.t
      .http()
      .post('/api/verify')
      .set(headers)
      .type('form')
      .send({ app, domain: 'shop.example.com', ...fields });
  }

  setProject(project: Project, body: object) {
    return this.admin.patch(`${PROJECTS}/${project.id}`, body).expect(200);
  }

  setInterface(project: Project, body: { authorized: boolean; daily_quota?: number | null }) {
    return this.admin.put(`${PROJECTS}/${project.id}/interfaces/licence_verify`, body).expect(200);
  }

  block(project: Project, kind: 'domain' | 'ip', value: string) {
    return this.admin.post(`${PROJECTS}/${project.id}/blacklist`, { kind, value }).expect(201);
  }

  setAuthor(author: Author, body: object) {
    return this.admin.patch(`/admin/v1/authors/${author.id}`, body).expect(200);
  }
}

describe('licence-file core verification, POST /api/verify (e2e)', () => {
  let t: TestApp;
  let w: World;

  beforeAll(async () => {
    t = await startTestApp();
    w = await World.start(t);
  });
  afterAll(() => t.close());

  describe('request', () => {
    it('verifies an authorized site: legacy envelope code 1 with domain, authorized, site and server_time', async () => {
      const project = await w.program();
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('answers GET /api/verify with JSON 405 and Allow: POST in the legacy envelope', async () => {
      const project = await w.program();
      const res = await t.http().get(`/api/verify?app=${project.program_id}&domain=shop.example.com`);
      expectVerifyFailure(res, 405, METHOD_NOT_ALLOWED);
      expect(res.headers.allow).toBe('POST');
      for (const method of ['put', 'delete', 'patch'] as const)
        expectVerifyFailure(await t.http()[method]('/api/verify'), 405, METHOD_NOT_ALLOWED);
    });

    it('refuses a JSON body with 415', async () => {
      const project = await w.program();
      expectVerifyFailure(
        await t.http().post('/api/verify').send({ app: project.program_id, domain: 'shop.example.com' }),
        415,
        UNSUPPORTED_MEDIA_TYPE,
      );
    });

    it('refuses a missing app (400 10004), an internal project key (400 10005) and an unknown program (404 10201)', async () => {
      const project = await w.program();
      expectVerifyFailure(
        await t.http().post('/api/verify').type('form').send({ domain: 'shop.example.com' }),
        400,
        APP_REQUIRED,
      );
      expectVerifyFailure(await w.verify(project.id), 400, INTERNAL_KEY_NOT_ACCEPTED);
      expectVerifyFailure(await w.verify('99999999'), 404, PROGRAM_NOT_FOUND);
    });

    it.each([
      ['missing', undefined],
      ['empty', ''],
      ['a URL', 'https://shop.example.com/'],
      ['with a port', 'shop.example.com:443'],
      ['with a space', 'shop example.com'],
      ['too long', `${'a'.repeat(63)}.`.repeat(4) + 'com'],
    ])('refuses a domain that is %s with 400 naming domain', async (_, domain) => {
      const project = await w.program();
      const fields: Record<string, string> = { app: project.program_id };
      if (domain !== undefined) fields.domain = domain;
      const res = await t.http().post('/api/verify').type('form').send(fields);
      expectVerifyFailure(res, 400, BAD_REQUEST);
      expect(JSON.stringify(res.body.details)).toContain('domain');
    });

    it('refuses a licence over 128 characters with 400', async () => {
      const project = await w.program([{ domain: 'shop.example.com', licence: 'x'.repeat(128) }]);
      expectVerifyFailure(await w.verify(project, { licence: 'x'.repeat(129) }), 400, BAD_REQUEST);
      expectVerified(await w.verify(project, { licence: 'x'.repeat(128) }), 'shop.example.com', 'shop.example.com');
    });

    it('compares the domain ignoring case and one trailing dot', async () => {
      const project = await w.program();
      expectVerified(await w.verify(project, { domain: 'SHOP.Example.com.' }), 'shop.example.com', 'shop.example.com');
    });
  });

  describe('gates, each with its code and HTTP status', () => {
    it('platform interface status: licence_verify switched off platform-wide is 403 10207', async () => {
      const project = await w.program();
      const res = await withPlatformInterface(w.admin, 'licence_verify', false, () => w.verify(project));
      expectVerifyFailure(res, 403, INTERFACE_DISABLED);
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('project status: a disabled project is 403 10202', async () => {
      const project = await w.program();
      await w.setProject(project, { status: 'disabled' });
      expectVerifyFailure(await w.verify(project), 403, PROGRAM_DISABLED);
      await w.setProject(project, { status: 'active' });
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it("author status: a disabled author's project is 403 10203", async () => {
      const owner = await w.admin.createAuthor();
      const project = await w.program([{ domain: 'shop.example.com' }], owner.client);
      await w.setAuthor(owner, { status: 'disabled' });
      expectVerifyFailure(await w.verify(project), 403, AUTHOR_DISABLED);
      await w.setAuthor(owner, { status: 'active' });
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('entitlement: a project without licence_verify is 403 10206, whatever its basic package', async () => {
      const project = await w.program();
      await w.setProject(project, { licence_verify: false, basic_package: true, plan_level: 1000 });
      expectVerifyFailure(await w.verify(project), 403, INTERFACE_NOT_AUTHORIZED);
      await w.setProject(project, { licence_verify: true, basic_package: false, plan_level: 0 });
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('is not part of the basic package: the entitlement alone opens it and the basic package alone does not', async () => {
      const author = w.author.client;
      const basicOnly = await author.createProject();
      await author.post(`${PROJECTS}/${basicOnly.id}/sites`, { domain: 'shop.example.com' }).expect(201);
      expect((await w.admin.get(`${PROJECTS}/${basicOnly.id}`).expect(200)).body).toMatchObject({
        basic_package: true,
        licence_verify: false,
      });
      expectVerifyFailure(await w.verify(basicOnly), 403, INTERFACE_NOT_AUTHORIZED);
    });

    it('per-project authorization: licence_verify set to unauthorized is 403 10206, for that project only', async () => {
      const project = await w.program();
      const neighbour = await w.program();
      await w.setInterface(project, { authorized: false });
      expectVerifyFailure(await w.verify(project), 403, INTERFACE_NOT_AUTHORIZED);
      expectVerified(await w.verify(neighbour), 'shop.example.com', 'shop.example.com');
      await w.setInterface(project, { authorized: true });
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('master switch: verification_enabled off is 403 10204', async () => {
      const project = await w.program();
      await w.author.client.patch(`${PROJECTS}/${project.id}`, { verification_enabled: false }).expect(200);
      expectVerifyFailure(await w.verify(project), 403, VERIFICATION_SWITCH_OFF);
      await w.author.client.patch(`${PROJECTS}/${project.id}`, { verification_enabled: true }).expect(200);
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('applies the gates in the spec order, each refusal naming the first failing gate', async () => {
      const owner = await w.admin.createAuthor({ daily_verify_quota: 0 });
      const project = await w.program([], owner.client);
      await w.setProject(project, {
        status: 'disabled',
        verification_enabled: false,
        licence_verify: false,
        ip_bindings: [FORGED_IP],
      });
      await w.setAuthor(owner, { status: 'disabled' });
      await w.setInterface(project, { authorized: false });
      await w.block(project, 'domain', 'shop.example.com');

      const steps: Array<[number, number, () => Promise<unknown>]> = [
        [403, PROGRAM_DISABLED, () => w.setProject(project, { status: 'active' })],
        [403, AUTHOR_DISABLED, () => w.setAuthor(owner, { status: 'active' })],
        [403, INTERFACE_NOT_AUTHORIZED, () => w.setProject(project, { licence_verify: true })],
        [403, INTERFACE_NOT_AUTHORIZED, () => w.setInterface(project, { authorized: true })],
        [403, VERIFICATION_SWITCH_OFF, () => w.setProject(project, { verification_enabled: true })],
        [
          200,
          SITE_NOT_AUTHORIZED,
          () => w.admin.post(`${PROJECTS}/${project.id}/sites`, { domain: 'shop.example.com' }).expect(201),
        ],
        [403, BLACKLISTED, () => clearBlacklist(project)],
        [403, IP_NOT_BOUND, () => w.setProject(project, { ip_bindings: [LOOPBACK] })],
        [429, QUOTA_EXCEEDED, () => w.setAuthor(owner, { daily_verify_quota: null })],
      ];
      await withPlatformInterface(w.admin, 'licence_verify', false, async () =>
        expectVerifyFailure(await w.verify(project), 403, INTERFACE_DISABLED),
      );
      // Metering must be on for the quota step.
      await withPlatformSettings(w.admin, { legacy_metering_enabled: true }, async () => {
        for (const [http, code, fix] of steps) {
          expectVerifyFailure(await w.verify(project), http, code);
          await fix();
        }
        expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
      });
    });

    async function clearBlacklist(project: Project) {
      const entries = (await w.admin.get(`${PROJECTS}/${project.id}/blacklist`).expect(200)).body.items as Array<{ id: number }>;
      for (const e of entries) await w.admin.delete(`${PROJECTS}/${project.id}/blacklist/${e.id}`).expect(204);
    }
  });

  describe('authorized sites', () => {
    it('admits an exact site and refuses any other domain with HTTP 200 code 40001', async () => {
      const project = await w.program([{ domain: 'exact.example.com' }]);
      expectVerified(await w.verify(project, { domain: 'exact.example.com' }), 'exact.example.com', 'exact.example.com');
      expectVerifyFailure(await w.verify(project, { domain: 'www.exact.example.com' }), 200, SITE_NOT_AUTHORIZED);
      expectVerifyFailure(await w.verify(project, { domain: 'example.com' }), 200, SITE_NOT_AUTHORIZED);
      expectVerifyFailure(await w.verify(project, { domain: 'exact.example.co' }), 200, SITE_NOT_AUTHORIZED);
    });

    it('admits sub.example.com and a.b.example.com under *.example.com, but not example.com itself', async () => {
      const project = await w.program([{ domain: '*.example.com' }]);
      expectVerified(await w.verify(project, { domain: 'sub.example.com' }), 'sub.example.com', '*.example.com');
      expectVerified(await w.verify(project, { domain: 'a.b.example.com' }), 'a.b.example.com', '*.example.com');
      expectVerifyFailure(await w.verify(project, { domain: 'example.com' }), 200, SITE_NOT_AUTHORIZED);
      expectVerifyFailure(await w.verify(project, { domain: 'badexample.com' }), 200, SITE_NOT_AUTHORIZED);
    });

    it("never admits another project's site", async () => {
      const project = await w.program([{ domain: 'mine.example.com' }]);
      await w.program([{ domain: 'theirs.example.com' }]);
      expectVerifyFailure(await w.verify(project, { domain: 'theirs.example.com' }), 200, SITE_NOT_AUTHORIZED);
    });

    it('refuses an expired site with 40001 and admits it again once the expiry is moved or cleared', async () => {
      const project = await w.program([{ domain: 'expired.example.com', expires_at: '2020-01-01T00:00:00Z' }]);
      expectVerifyFailure(await w.verify(project, { domain: 'expired.example.com' }), 200, SITE_NOT_AUTHORIZED);
      const site = (await w.admin.get(`${PROJECTS}/${project.id}/sites`).expect(200)).body.items[0];
      await w.admin.patch(`${PROJECTS}/${project.id}/sites/${site.id}`, { expires_at: '2099-01-01T00:00:00Z' }).expect(200);
      expectVerified(
        await w.verify(project, { domain: 'expired.example.com' }),
        'expired.example.com',
        'expired.example.com',
        '2099-01-01T00:00:00.000Z',
      );
      await w.admin.patch(`${PROJECTS}/${project.id}/sites/${site.id}`, { expires_at: null }).expect(200);
      expectVerified(await w.verify(project, { domain: 'expired.example.com' }), 'expired.example.com', 'expired.example.com');
    });

    it('refuses a missing or mismatched licence with 40001 and admits the exact licence', async () => {
      const project = await w.program([{ domain: 'licensed.example.com', licence: 'LIC-2030-abc' }]);
      expectVerifyFailure(await w.verify(project, { domain: 'licensed.example.com' }), 200, SITE_NOT_AUTHORIZED);
      expectVerifyFailure(
        await w.verify(project, { domain: 'licensed.example.com', licence: 'LIC-2030-abd' }),
        200,
        SITE_NOT_AUTHORIZED,
      );
      expectVerifyFailure(
        await w.verify(project, { domain: 'licensed.example.com', licence: 'lic-2030-abc' }),
        200,
        SITE_NOT_AUTHORIZED,
      );
      expectVerifyFailure(await w.verify(project, { domain: 'licensed.example.com', licence: '' }), 200, SITE_NOT_AUTHORIZED);
      expectVerified(
        await w.verify(project, { domain: 'licensed.example.com', licence: 'LIC-2030-abc' }),
        'licensed.example.com',
        'licensed.example.com',
      );
    });

    it('follows site writes at once: a deleted site is refused on the next request', async () => {
      const project = await w.program([{ domain: 'live.example.com' }]);
      expectVerified(await w.verify(project, { domain: 'live.example.com' }), 'live.example.com', 'live.example.com');
      const site = (await w.author.client.get(`${PROJECTS}/${project.id}/sites`).expect(200)).body.items[0];
      await w.author.client.delete(`${PROJECTS}/${project.id}/sites/${site.id}`).expect(204);
      expectVerifyFailure(await w.verify(project, { domain: 'live.example.com' }), 200, SITE_NOT_AUTHORIZED);
    });
  });

  describe('blacklists', () => {
    it('refuses a blacklisted domain with 403 40002, and its subdomains, not a look-alike', async () => {
      const project = await w.program([{ domain: '*.example.com' }]);
      await w.block(project, 'domain', 'evil.example.com');
      const refused = await w.verify(project, { domain: 'evil.example.com' });
      expectVerifyFailure(refused, 403, BLACKLISTED);
      expect(refused.body.msg).toBe('This domain is blacklisted');
      expectVerifyFailure(await w.verify(project, { domain: 'www.evil.example.com' }), 403, BLACKLISTED);
      expectVerified(await w.verify(project, { domain: 'notevil.example.com' }), 'notevil.example.com', '*.example.com');
    });

    it("refuses the client's IP when blacklisted with 403 40002, and admits it once the entry is deleted", async () => {
      const project = await w.program();
      const entry = (await w.block(project, 'ip', LOOPBACK)).body;
      const refused = await w.verify(project);
      expectVerifyFailure(refused, 403, BLACKLISTED);
      expect(refused.body.msg).toBe('This IP is blacklisted');
      await w.admin.delete(`${PROJECTS}/${project.id}/blacklist/${entry.id}`).expect(204);
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('does not let a forged X-Forwarded-For or body ip field escape an IP blacklist', async () => {
      const project = await w.program();
      await w.block(project, 'ip', LOOPBACK);
      expectVerifyFailure(await w.verify(project, { ip: FORGED_IP }, { 'X-Forwarded-For': FORGED_IP }), 403, BLACKLISTED);
    });

    it("applies only the project's own blacklist", async () => {
      const project = await w.program();
      const other = await w.program();
      await w.block(other, 'ip', LOOPBACK);
      await w.block(other, 'domain', 'shop.example.com');
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });
  });

  describe('IP binding (client IP from the socket only)', () => {
    it('admits any client IP while ip_bindings is empty', async () => {
      const project = await w.program();
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('admits the socket address when it is bound', async () => {
      const project = await w.program();
      await w.setProject(project, { ip_bindings: [FORGED_IP, LOOPBACK] });
      expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
    });

    it('refuses an unbound client with 403 40003, even with a forged X-Forwarded-For header naming a bound IP', async () => {
      const project = await w.program();
      await w.setProject(project, { ip_bindings: [FORGED_IP] });
      expectVerifyFailure(await w.verify(project), 403, IP_NOT_BOUND);
      expectVerifyFailure(await w.verify(project, {}, { 'X-Forwarded-For': FORGED_IP }), 403, IP_NOT_BOUND);
      expectVerifyFailure(
        await w.verify(project, {}, { 'X-Real-IP': FORGED_IP, Forwarded: `for=${FORGED_IP}` }),
        403,
        IP_NOT_BOUND,
      );
    });

    it('refuses an unbound client with 40003 even with a forged body field ip naming a bound IP', async () => {
      const project = await w.program();
      await w.setProject(project, { ip_bindings: [FORGED_IP] });
      expectVerifyFailure(await w.verify(project, { ip: FORGED_IP }), 403, IP_NOT_BOUND);
      expectVerifyFailure(
        await w.verify(project, { ip: FORGED_IP, client_ip: FORGED_IP }, { 'X-Forwarded-For': FORGED_IP }),
        403,
        IP_NOT_BOUND,
      );
    });
  });

  describe("author's daily quotas", () => {
    /** Metering on for the duration (a platform setting), then put back. */
    const metered = <T>(fn: () => Promise<T>) => withPlatformSettings(w.admin, { legacy_metering_enabled: true }, fn);

    it('admits exactly N of 2N concurrent verifications under a daily API quota of N; the rest are 429 10301', async () => {
      const N = 5;
      const owner = await w.admin.createAuthor({ daily_api_quota: N });
      const project = await w.program([{ domain: 'shop.example.com' }], owner.client);
      const results = await metered(() => Promise.all(Array.from({ length: 2 * N }, () => w.verify(project))));
      expect(results.filter((r) => r.status === 200 && r.body.code === 1)).toHaveLength(N);
      const refused = results.filter((r) => r.status === 429);
      expect(refused).toHaveLength(N);
      for (const r of refused) expectVerifyFailure(r, 429, QUOTA_EXCEEDED);
    });

    it('admits exactly N of 2N concurrent verifications under a daily verification quota of N', async () => {
      const N = 5;
      const owner = await w.admin.createAuthor({ daily_verify_quota: N });
      const project = await w.program([{ domain: 'shop.example.com' }], owner.client);
      const results = await metered(() => Promise.all(Array.from({ length: 2 * N }, () => w.verify(project))));
      expect(results.filter((r) => r.status === 200 && r.body.code === 1)).toHaveLength(N);
      expect(results.filter((r) => r.status === 429 && r.body.code === QUOTA_EXCEEDED)).toHaveLength(N);
    });

    it("counts every project of the author in one quota, and each author's separately", async () => {
      const owner = await w.admin.createAuthor({ daily_verify_quota: 2 });
      const first = await w.program([{ domain: 'shop.example.com' }], owner.client);
      const second = await w.program([{ domain: 'shop.example.com' }], owner.client);
      const otherAuthor = await w.admin.createAuthor({ daily_verify_quota: 1 });
      const others = await w.program([{ domain: 'shop.example.com' }], otherAuthor.client);
      await metered(async () => {
        expectVerified(await w.verify(first), 'shop.example.com', 'shop.example.com');
        expectVerified(await w.verify(second), 'shop.example.com', 'shop.example.com');
        expectVerifyFailure(await w.verify(first), 429, QUOTA_EXCEEDED);
        expectVerifyFailure(await w.verify(second), 429, QUOTA_EXCEEDED);
        expectVerified(await w.verify(others), 'shop.example.com', 'shop.example.com');
      });
    });

    it('does not count refused requests: neither gate refusals nor quota refusals use up the quota', async () => {
      const owner = await w.admin.createAuthor({ daily_api_quota: 5, daily_verify_quota: 2 });
      const project = await w.program([{ domain: 'shop.example.com' }], owner.client);
      await metered(async () => {
        for (let i = 0; i < 3; i++)
          expectVerifyFailure(await w.verify(project, { domain: 'unknown.example.com' }), 200, SITE_NOT_AUTHORIZED);
        expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
        expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
        // Refused by the verification quota: these must not use up the API quota either.
        for (let i = 0; i < 3; i++) expectVerifyFailure(await w.verify(project), 429, QUOTA_EXCEEDED);
        await w.setAuthor(owner, { daily_verify_quota: 100 });
        // 5 API uses a day, 2 spent: exactly 3 more.
        for (let i = 0; i < 3; i++) expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
        expectVerifyFailure(await w.verify(project), 429, QUOTA_EXCEEDED);
      });
    });

    it('refuses everything under a quota of 0, and null lifts the limit', async () => {
      const owner = await w.admin.createAuthor({ daily_api_quota: 0 });
      const project = await w.program([{ domain: 'shop.example.com' }], owner.client);
      await metered(async () => {
        expectVerifyFailure(await w.verify(project), 429, QUOTA_EXCEEDED);
        await w.setAuthor(owner, { daily_api_quota: null });
        for (let i = 0; i < 3; i++) expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
      });
    });
  });

  describe('metering switch', () => {
    it('metering off: quotas are neither enforced nor counted, but a disabled interface still refuses', async () => {
      const owner = await w.admin.createAuthor({ daily_api_quota: 1, daily_verify_quota: 1 });
      const project = await w.program([{ domain: 'shop.example.com' }], owner.client);
      const unentitled = await w.program([{ domain: 'shop.example.com' }], owner.client);
      await w.setProject(unentitled, { licence_verify: false });
      await withPlatformSettings(w.admin, { legacy_metering_enabled: false }, async () => {
        for (let i = 0; i < 4; i++) expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
        // Enablement is never bypassed: the entitlement, the per-project authorization and the platform switch.
        expectVerifyFailure(await w.verify(unentitled), 403, INTERFACE_NOT_AUTHORIZED);
        await w.setInterface(project, { authorized: false });
        expectVerifyFailure(await w.verify(project), 403, INTERFACE_NOT_AUTHORIZED);
        await w.setInterface(project, { authorized: true });
        // The platform switch, off and back on.
        await w.admin.put('/admin/v1/platform/interfaces/licence_verify', { enabled: false }).expect(200);
        try {
          expectVerifyFailure(await w.verify(project), 403, INTERFACE_DISABLED);
        } finally {
          await w.admin.put('/admin/v1/platform/interfaces/licence_verify', { enabled: true }).expect(200);
        }
      });
      // Nothing was counted while metering was off: the quota of 1 still admits one.
      await withPlatformSettings(w.admin, { legacy_metering_enabled: true }, async () => {
        expectVerified(await w.verify(project), 'shop.example.com', 'shop.example.com');
        expectVerifyFailure(await w.verify(project), 429, QUOTA_EXCEEDED);
      });
    });
  });
});

describe('licence-file core verification behind a trusted proxy (TRUST_PROXY=127.0.0.1) (e2e)', () => {
  let t: TestApp;
  let w: World;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: LOOPBACK });
    w = await World.start(t);
  });
  afterAll(() => t.close());

  it('admits a bound IP named by X-Forwarded-For from the trusted proxy', async () => {
    const project = await w.program();
    await w.setProject(project, { ip_bindings: [FORGED_IP] });
    expectVerified(await w.verify(project, {}, { 'X-Forwarded-For': FORGED_IP }), 'shop.example.com', 'shop.example.com');
  });

  it('still refuses with 40003 without the header (the proxy itself is not bound), and ignores a body ip field', async () => {
    const project = await w.program();
    await w.setProject(project, { ip_bindings: [FORGED_IP] });
    expectVerifyFailure(await w.verify(project), 403, IP_NOT_BOUND);
    expectVerifyFailure(await w.verify(project, { ip: FORGED_IP }), 403, IP_NOT_BOUND);
    expectVerifyFailure(await w.verify(project, {}, { 'X-Forwarded-For': '198.51.100.1' }), 403, IP_NOT_BOUND);
  });

  it('uses the nearest untrusted hop: a spoofed left-most X-Forwarded-For entry does not pass', async () => {
    const project = await w.program();
    await w.setProject(project, { ip_bindings: [FORGED_IP] });
    expectVerifyFailure(await w.verify(project, {}, { 'X-Forwarded-For': `${FORGED_IP}, 198.51.100.1` }), 403, IP_NOT_BOUND);
  });

  it('applies the IP blacklist to the forwarded client IP', async () => {
    const project = await w.program();
    await w.block(project, 'ip', FORGED_IP);
    expectVerifyFailure(await w.verify(project, {}, { 'X-Forwarded-For': FORGED_IP }), 403, BLACKLISTED);
    expectVerified(await w.verify(project, {}, { 'X-Forwarded-For': '198.51.100.2' }), 'shop.example.com', 'shop.example.com');
  });
});
