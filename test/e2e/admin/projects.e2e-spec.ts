import { AdminClient } from '../../support/admin-client';
import {
  BAD_REQUEST,
  CONNECT_NOT_SELF_SERVICE,
  expectAdminError,
  FORBIDDEN,
  INTERFACE_NOT_FOUND,
  PROJECT_NOT_FOUND,
  SECRET_NOT_FOUND,
  UNAUTHENTICATED,
} from '../../support/admin-errors';
import { connectLogin } from '../../support/connect';
import { withPlatformInterface, withPlatformSettings } from '../../support/platform-state';
import { startTestApp, TestApp, unique } from '../../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PROGRAM_ID = /^[1-9][0-9]{7}$/;
const MASKED = /^\*{4}.{4}$/;
const INTERFACES = [
  'card_login',
  'card_unbind',
  'card_heartbeat',
  'user_register',
  'user_login',
  'user_heartbeat',
  'announcement',
  'app_config',
  'get_file',
  'app_profile',
  'version_check',
  'state_check',
  'paycheck',
  'licence_verify',
  'card_info',
  'card_topup',
  'card_trial',
];
const SECRETS = ['api_secret', 'legacy_secret', 'transport_key'] as const;
const CONNECT_NOT_ENABLED = 10208;
const PROJECTS = '/admin/v1/projects';

const DEFAULT_SETTINGS = {
  status: 'active',
  verification_enabled: true,
  basic_package: true,
  plan_level: 0,
  licence_verify: false,
  device_limit: 1,
  unbind_enabled: true,
  unbind_deduct_seconds: 0,
  unbind_max: null,
  unbind_cooldown_seconds: 0,
  trial_card_type_id: null,
  unbind_max_per_30_days: null,
  device_idle_release_seconds: 0,
  session_ttl_seconds: 600,
  heartbeat_interval_seconds: 60,
  user_machine_policy: 'rebind',
  transport_encryption: 'none',
  ip_bindings: [],
  connect_enabled: false,
  response_signing: true,
  offline_grace_seconds: 0,
  concurrent_limit: null,
  seat_policy: 'refuse',
  portal_enabled: true,
  card_guess_limit_per_minute: 20,
};

type Project = Record<string, unknown> & { id: string; program_id: string; owner_id: string; name: string };

describe('projects admin API (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: { client: AdminClient; id: string };
  let b: { client: AdminClient; id: string };
  /** Every clear secret the service showed, to prove none reaches a log line. */
  const shown: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    a = await admin.createAuthor();
    b = await admin.createAuthor();
  });
  afterAll(() => t.close());

  async function create(client: AdminClient, fields: object = {}) {
    const project = await client.createProject(fields);
    shown.push(project.api_secret, project.legacy_secret, project.transport_key);
    return project;
  }
  const get = async (client: AdminClient, id: string) => (await client.get(`${PROJECTS}/${id}`).expect(200)).body as Project;
  const list = async (client: AdminClient, query = '') =>
    (await client.get(`${PROJECTS}?page_size=100${query}`).expect(200)).body as {
      items: Project[];
      total: number;
      page: number;
      page_size: number;
    };

  describe('create', () => {
    it('an author creates a project with the default settings, owned by itself, and sees its three secrets once', async () => {
      const name = unique('Program ');
      const res = await a.client.post(PROJECTS, { name }).expect(201);
      const body = res.body;
      shown.push(body.api_secret, body.legacy_secret, body.transport_key);
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        program_id: expect.stringMatching(PROGRAM_ID),
        name,
        owner_id: a.id,
        ...DEFAULT_SETTINGS,
        // The default opening mode (base_package) with the default basic package: open.
        connect_opening: { open: true, mode: 'base_package', min_level: expect.any(Number), switchable: false },
        api_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        legacy_secret: expect.stringMatching(/^[0-9a-f]{32}$/),
        transport_key: expect.stringMatching(/^[0-9a-f]{32}$/),
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(new Set(SECRETS.map((s) => body[s])).size).toBe(3);

      const masked = Object.fromEntries(SECRETS.map((s) => [s, `****${body[s].slice(-4)}`]));
      const fetched = await get(a.client, body.id);
      expect(fetched).toEqual({ ...body, ...masked });
      const listed = (await list(a.client)).items.find((p) => p.id === body.id);
      expect(listed).toEqual({ ...body, ...masked });
      const adminView = await get(admin, body.id);
      expect(adminView).toEqual({ ...body, ...masked });
      for (const text of [JSON.stringify(fetched), JSON.stringify(listed), JSON.stringify(adminView)]) {
        for (const s of SECRETS) expect(text).not.toContain(body[s]);
      }
    });

    it('gives every project its own program ID and secrets', async () => {
      const projects = await Promise.all([1, 2, 3, 4].map(() => create(a.client)));
      expect(new Set(projects.map((p) => p.program_id)).size).toBe(4);
      expect(new Set(projects.flatMap((p) => SECRETS.map((s) => p[s]))).size).toBe(12);
      for (const p of projects) expect(p.program_id).toMatch(PROGRAM_ID);
    });

    it('takes settings at creation', async () => {
      const p = await create(a.client, {
        device_limit: 3,
        transport_encryption: 'rc4',
        ip_bindings: ['192.0.2.7'],
        user_machine_policy: 'free',
      });
      expect(p).toMatchObject({
        device_limit: 3,
        transport_encryption: 'rc4',
        ip_bindings: ['192.0.2.7'],
        user_machine_policy: 'free',
      });
      expect(await get(a.client, p.id)).toMatchObject({
        device_limit: 3,
        transport_encryption: 'rc4',
        ip_bindings: ['192.0.2.7'],
      });
    });

    it('a platform admin must name an author as owner_id', async () => {
      const me = (await admin.get('/admin/v1/auth/me').expect(200)).body;
      const name = unique('AdminMade ');
      expectAdminError(await admin.post(PROJECTS, { name }), 400, BAD_REQUEST, 'owner_id');
      expectAdminError(await admin.post(PROJECTS, { name, owner_id: me.id }), 400, BAD_REQUEST, 'owner_id');
      expectAdminError(
        await admin.post(PROJECTS, { name, owner_id: '5b0f8b0e-1c1d-4f8e-9d53-3a3b1c2d4e5f' }),
        400,
        BAD_REQUEST,
        'owner_id',
      );
      expectAdminError(await admin.post(PROJECTS, { name, owner_id: 'alice' }), 400, BAD_REQUEST, 'owner_id');
      expect((await list(admin, `&q=${encodeURIComponent(name)}`)).total).toBe(0);

      const res = await admin.post(PROJECTS, { name, owner_id: b.id }).expect(201);
      shown.push(res.body.api_secret, res.body.legacy_secret, res.body.transport_key);
      expect(res.body).toMatchObject({ name, owner_id: b.id, ...DEFAULT_SETTINGS });
      expect(res.body.api_secret).not.toMatch(MASKED);
      expect((await list(b.client)).items.map((p) => p.id)).toContain(res.body.id);
      expect((await list(a.client)).items.map((p) => p.id)).not.toContain(res.body.id);
    });

    it('an author cannot create a project for someone else (403), but may name itself', async () => {
      const name = unique('Stolen ');
      expectAdminError(await a.client.post(PROJECTS, { name, owner_id: b.id }), 403, FORBIDDEN);
      expect((await list(admin, `&q=${encodeURIComponent(name)}`)).total).toBe(0);
      const own = await a.client.post(PROJECTS, { name, owner_id: a.id }).expect(201);
      shown.push(own.body.api_secret, own.body.legacy_secret, own.body.transport_key);
      expect(own.body.owner_id).toBe(a.id);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a missing name', { name: undefined }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
      ['a device_limit of 0', { device_limit: 0 }, 'device_limit'],
      ['an unknown user_machine_policy', { user_machine_policy: 'sticky' }, 'user_machine_policy'],
      ['an entitlement field', { basic_package: false }, 'basic_package'],
      ['a program_id of its own choosing', { program_id: '12345678' }, 'program_id'],
      ['a secret of its own choosing', { api_secret: 'mine' }, 'api_secret'],
    ])('answers 400 naming the field for %s, and creates nothing', async (_label, fields, field) => {
      const before = (await list(a.client)).total;
      const name = unique('Invalid ');
      expectAdminError(await a.client.post(PROJECTS, { name, ...fields }), 400, BAD_REQUEST, field);
      expect((await list(a.client)).total).toBe(before);
    });

    it('refuses connect_enabled at creation (409) outside the self-service mode', async () => {
      await withPlatformSettings(admin, { connect_opening_mode: 'base_package' }, async () => {
        const name = unique('EarlyConnect ');
        expectAdminError(await a.client.post(PROJECTS, { name, connect_enabled: true }), 409, CONNECT_NOT_SELF_SERVICE);
        expect((await list(a.client, `&q=${encodeURIComponent(name)}`)).total).toBe(0);
      });
    });
  });

  describe('settings', () => {
    it('PATCH changes any subset of the settings and leaves the rest alone', async () => {
      const p = await create(a.client);
      const change = {
        name: 'Renamed program',
        status: 'disabled',
        verification_enabled: false,
        device_limit: 5,
        unbind_enabled: false,
        unbind_deduct_seconds: 3600,
        unbind_max: 3,
        session_ttl_seconds: 1800,
        heartbeat_interval_seconds: 30,
        user_machine_policy: 'locked',
        transport_encryption: 'aes',
        ip_bindings: ['203.0.113.9', '2001:db8::1', '203.0.113.9'],
      };
      const res = await a.client.patch(`${PROJECTS}/${p.id}`, change).expect(200);
      const expected = { ...change, ip_bindings: ['203.0.113.9', '2001:db8::1'] };
      expect(res.body).toMatchObject({
        ...expected,
        id: p.id,
        program_id: p.program_id,
        owner_id: a.id,
        basic_package: true,
        connect_enabled: false,
      });
      expect(res.body.api_secret).toBe(`****${p.api_secret.slice(-4)}`);
      expect(await get(a.client, p.id)).toEqual(res.body);

      const one = await a.client.patch(`${PROJECTS}/${p.id}`, { unbind_max: null }).expect(200);
      expect(one.body).toEqual({ ...res.body, unbind_max: null, updated_at: expect.any(String) });
      const clear = await a.client.patch(`${PROJECTS}/${p.id}`, { ip_bindings: [] }).expect(200);
      expect(clear.body.ip_bindings).toEqual([]);
      expect((await get(a.client, p.id)).ip_bindings).toEqual([]);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['device_limit 0', { device_limit: 0 }, 'device_limit'],
      ['device_limit 1.5', { device_limit: 1.5 }, 'device_limit'],
      ['device_limit as a string', { device_limit: '2' }, 'device_limit'],
      ["user_machine_policy 'x'", { user_machine_policy: 'x' }, 'user_machine_policy'],
      ["transport_encryption 'des'", { transport_encryption: 'des' }, 'transport_encryption'],
      ["ip_bindings ['not-an-ip']", { ip_bindings: ['not-an-ip'] }, 'ip_bindings'],
      ['ip_bindings with a CIDR range', { ip_bindings: ['10.0.0.0/8'] }, 'ip_bindings'],
      ['ip_bindings that is not a list', { ip_bindings: '10.0.0.1' }, 'ip_bindings'],
      ["status 'paused'", { status: 'paused' }, 'status'],
      ['verification_enabled as a string', { verification_enabled: 'yes' }, 'verification_enabled'],
      ['session_ttl_seconds 0', { session_ttl_seconds: 0 }, 'session_ttl_seconds'],
      ['heartbeat_interval_seconds -1', { heartbeat_interval_seconds: -1 }, 'heartbeat_interval_seconds'],
      ['unbind_deduct_seconds -1', { unbind_deduct_seconds: -1 }, 'unbind_deduct_seconds'],
      ['unbind_max -1', { unbind_max: -1 }, 'unbind_max'],
      ['card_guess_limit_per_minute 0', { card_guess_limit_per_minute: 0 }, 'card_guess_limit_per_minute'],
      ['card_guess_limit_per_minute over 10000', { card_guess_limit_per_minute: 10_001 }, 'card_guess_limit_per_minute'],
      ['an empty name', { name: '' }, 'name'],
      ['an unknown field', { colour: 'blue' }, 'colour'],
      ['owner_id (no transfer by PATCH)', { owner_id: '5b0f8b0e-1c1d-4f8e-9d53-3a3b1c2d4e5f' }, 'owner_id'],
      ['program_id', { program_id: '12345678' }, 'program_id'],
      ['a secret', { legacy_secret: 'mine' }, 'legacy_secret'],
    ])('PATCH answers 400 naming the field for %s, and changes nothing', async (_label, body, field) => {
      const p = await create(a.client);
      const before = await get(a.client, p.id);
      // A valid change in the same body must not be applied either.
      expectAdminError(await a.client.patch(`${PROJECTS}/${p.id}`, { device_limit: 7, ...body }), 400, BAD_REQUEST, field);
      expect(await get(a.client, p.id)).toEqual(before);
    });

    it('an author PATCHing an entitlement gets 403 and nothing changes; a platform admin can', async () => {
      const p = await create(a.client);
      const before = await get(a.client, p.id);
      for (const body of [
        { basic_package: false },
        { plan_level: 3 },
        { licence_verify: true },
        { name: 'Sneaky', device_limit: 4, plan_level: 9 },
      ]) {
        expectAdminError(await a.client.patch(`${PROJECTS}/${p.id}`, body), 403, FORBIDDEN);
      }
      expect(await get(a.client, p.id)).toEqual(before);

      const res = await admin
        .patch(`${PROJECTS}/${p.id}`, { basic_package: false, plan_level: 4, licence_verify: true })
        .expect(200);
      expect(res.body).toMatchObject({ basic_package: false, plan_level: 4, licence_verify: true, name: p.name, owner_id: a.id });
      expect(await get(a.client, p.id)).toMatchObject({ basic_package: false, plan_level: 4, licence_verify: true });
      // The owner may still change its own settings afterwards.
      await a.client.patch(`${PROJECTS}/${p.id}`, { device_limit: 2 }).expect(200);
      expect(await get(a.client, p.id)).toMatchObject({ basic_package: false, plan_level: 4, device_limit: 2 });
    });
  });

  describe('entitlements', () => {
    it('a platform admin PUTs all three; the author sees them', async () => {
      const p = await create(a.client);
      const res = await admin
        .put(`${PROJECTS}/${p.id}/entitlements`, { basic_package: false, plan_level: 2, licence_verify: true })
        .expect(200);
      expect(res.body).toMatchObject({
        id: p.id,
        basic_package: false,
        plan_level: 2,
        licence_verify: true,
        ...pick(p, ['name', 'device_limit']),
      });
      expect(res.body.api_secret).toMatch(MASKED);
      expect(await get(a.client, p.id)).toMatchObject({ basic_package: false, plan_level: 2, licence_verify: true });
      await admin
        .put(`${PROJECTS}/${p.id}/entitlements`, { basic_package: true, plan_level: 0, licence_verify: false })
        .expect(200);
      expect(await get(a.client, p.id)).toMatchObject({ basic_package: true, plan_level: 0, licence_verify: false });
    });

    it('refuses the author (403), a partial or bad body (400) and an unknown project (404)', async () => {
      const p = await create(a.client);
      const before = await get(a.client, p.id);
      const full = { basic_package: false, plan_level: 5, licence_verify: true };
      expectAdminError(await a.client.put(`${PROJECTS}/${p.id}/entitlements`, full), 403, FORBIDDEN);
      expectAdminError(
        await admin.put(`${PROJECTS}/${p.id}/entitlements`, { basic_package: false }),
        400,
        BAD_REQUEST,
        'plan_level',
      );
      expectAdminError(
        await admin.put(`${PROJECTS}/${p.id}/entitlements`, { ...full, plan_level: -1 }),
        400,
        BAD_REQUEST,
        'plan_level',
      );
      expectAdminError(
        await admin.put(`${PROJECTS}/${p.id}/entitlements`, { ...full, device_limit: 9 }),
        400,
        BAD_REQUEST,
        'device_limit',
      );
      expect(await get(a.client, p.id)).toEqual(before);
      expectAdminError(
        await admin.put(`${PROJECTS}/0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6/entitlements`, full),
        404,
        PROJECT_NOT_FOUND,
      );
    });
  });

  describe('secrets', () => {
    it.each(SECRETS)('rotating %s shows the new value once; the masked view follows and the others stay', async (name) => {
      const p = await create(a.client);
      const res = await a.client.post(`${PROJECTS}/${p.id}/secrets/${name}/rotate`).expect(200);
      shown.push(res.body.value);
      expect(res.body).toEqual({ name, value: expect.any(String) });
      expect(res.body.value).not.toBe(p[name]);
      expect(res.body.value).toMatch(name === 'api_secret' ? /^[A-Za-z0-9_-]{43}$/ : /^[0-9a-f]{32}$/);
      const after = await get(a.client, p.id);
      expect(after[name]).toBe(`****${res.body.value.slice(-4)}`);
      for (const other of SECRETS.filter((s) => s !== name)) expect(after[other]).toBe(`****${p[other].slice(-4)}`);
      expect(JSON.stringify(after)).not.toContain(res.body.value);

      const again = await a.client.post(`${PROJECTS}/${p.id}/secrets/${name}/rotate`).expect(200);
      shown.push(again.body.value);
      expect(again.body.value).not.toBe(res.body.value);
      expect((await get(a.client, p.id))[name]).toBe(`****${again.body.value.slice(-4)}`);
    });

    it('answers 404 for an unknown secret name and changes nothing', async () => {
      const p = await create(a.client);
      const before = await get(a.client, p.id);
      for (const name of ['password', 'API_SECRET', 'transport-key']) {
        expectAdminError(await a.client.post(`${PROJECTS}/${p.id}/secrets/${name}/rotate`), 404, SECRET_NOT_FOUND);
      }
      expect(await get(a.client, p.id)).toEqual(before);
    });

    it('a platform admin may rotate too', async () => {
      const p = await create(a.client);
      const res = await admin.post(`${PROJECTS}/${p.id}/secrets/legacy_secret/rotate`).expect(200);
      shown.push(res.body.value);
      expect((await get(a.client, p.id)).legacy_secret).toBe(`****${res.body.value.slice(-4)}`);
    });
  });

  describe('interfaces', () => {
    it('lists the 17 interfaces authorized, without quota, with the platform status', async () => {
      const p = await create(a.client);
      const platform = (await admin.get('/admin/v1/platform/interfaces').expect(200)).body.items as Array<{
        name: string;
        enabled: boolean;
      }>;
      const res = await a.client.get(`${PROJECTS}/${p.id}/interfaces`).expect(200);
      expect(res.body).toEqual({
        items: INTERFACES.map((name) => ({
          name,
          authorized: true,
          daily_quota: null,
          platform_enabled: platform.find((i) => i.name === name)!.enabled,
        })),
        total: 17,
      });
      expect((await admin.get(`${PROJECTS}/${p.id}/interfaces`).expect(200)).body).toEqual(res.body);
    });

    it('shows an interface switched off platform-wide as platform_enabled false', async () => {
      const p = await create(a.client);
      await a.client.get(`${PROJECTS}/${p.id}/interfaces`).expect(200);
      await withPlatformInterface(admin, 'paycheck', false, async () => {
        const items = (await a.client.get(`${PROJECTS}/${p.id}/interfaces`).expect(200)).body.items;
        expect(items.find((i: { name: string }) => i.name === 'paycheck')).toEqual({
          name: 'paycheck',
          authorized: true,
          daily_quota: null,
          platform_enabled: false,
        });
      });
    });

    it('a platform admin sets authorization and a daily quota per project; the author sees it', async () => {
      const p = await create(a.client);
      const other = await create(a.client);
      const res = await admin.put(`${PROJECTS}/${p.id}/interfaces/card_login`, { authorized: false, daily_quota: 5 }).expect(200);
      expect(res.body).toEqual({ name: 'card_login', authorized: false, daily_quota: 5, platform_enabled: expect.any(Boolean) });

      const items = (await a.client.get(`${PROJECTS}/${p.id}/interfaces`).expect(200)).body.items as Array<{ name: string }>;
      expect(items.find((i) => i.name === 'card_login')).toMatchObject({ authorized: false, daily_quota: 5 });
      expect(items.filter((i) => i.name !== 'card_login')).toEqual(
        expect.arrayContaining(
          INTERFACES.filter((n) => n !== 'card_login').map((name) =>
            expect.objectContaining({ name, authorized: true, daily_quota: null }),
          ),
        ),
      );
      // Another project keeps its own authorization.
      const otherItems = (await a.client.get(`${PROJECTS}/${other.id}/interfaces`).expect(200)).body.items as Array<{
        name: string;
      }>;
      expect(otherItems.find((i) => i.name === 'card_login')).toMatchObject({ authorized: true, daily_quota: null });

      // A quota left out means unlimited again; 0 is a real quota.
      await admin.put(`${PROJECTS}/${p.id}/interfaces/card_login`, { authorized: true }).expect(200);
      await admin.put(`${PROJECTS}/${p.id}/interfaces/user_login`, { authorized: true, daily_quota: 0 }).expect(200);
      const after = (await a.client.get(`${PROJECTS}/${p.id}/interfaces`).expect(200)).body.items as Array<{ name: string }>;
      expect(after.find((i) => i.name === 'card_login')).toMatchObject({ authorized: true, daily_quota: null });
      expect(after.find((i) => i.name === 'user_login')).toMatchObject({ authorized: true, daily_quota: 0 });
    });

    it('refuses the author (403), an unknown interface (404) and a bad body (400), changing nothing', async () => {
      const p = await create(a.client);
      const before = (await a.client.get(`${PROJECTS}/${p.id}/interfaces`).expect(200)).body;
      expectAdminError(
        await a.client.put(`${PROJECTS}/${p.id}/interfaces/card_login`, { authorized: true, daily_quota: 1000 }),
        403,
        FORBIDDEN,
      );
      for (const name of ['kmlogon', 'nope']) {
        expectAdminError(
          await admin.put(`${PROJECTS}/${p.id}/interfaces/${name}`, { authorized: false }),
          404,
          INTERFACE_NOT_FOUND,
        );
      }
      for (const [body, field] of [
        [{ authorized: false, daily_quota: -1 }, 'daily_quota'],
        [{ authorized: false, daily_quota: 2.5 }, 'daily_quota'],
        [{ authorized: false, daily_quota: 2 ** 31 }, 'daily_quota'],
        [{ daily_quota: 5 }, 'authorized'],
        [{ authorized: 'no' }, 'authorized'],
        [{ authorized: false, enabled: false }, 'enabled'],
      ] as const) {
        expectAdminError(await admin.put(`${PROJECTS}/${p.id}/interfaces/card_login`, body), 400, BAD_REQUEST, field);
      }
      expect((await a.client.get(`${PROJECTS}/${p.id}/interfaces`).expect(200)).body).toEqual(before);
      expectAdminError(
        await admin.put(`${PROJECTS}/0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6/interfaces/card_login`, { authorized: false }),
        404,
        PROJECT_NOT_FOUND,
      );
    });
  });

  describe('Connect self-service switch', () => {
    it('says whether Connect is open and by which rule, as the Connect gate decides, in each opening mode', async () => {
      const p = await create(a.client);
      const opening = async () => (await get(a.client, p.id)).connect_opening;
      // A card key that matches no card: past the gate, the answer is the card's refusal, not CONNECT_NOT_ENABLED.
      const login = async () =>
        (await connectLogin(t, p.program_id, { user_key: 'NO-SUCH-CARD', serial: 'pc-1' })).body.code as number;
      const entitle = (basic_package: boolean, plan_level: number) =>
        admin.put(`${PROJECTS}/${p.id}/entitlements`, { basic_package, plan_level, licence_verify: false }).expect(200);
      await entitle(true, 0);
      await withPlatformSettings(admin, { connect_opening_mode: 'base_package' }, async () => {
        expect(await opening()).toEqual({ open: true, mode: 'base_package', min_level: expect.any(Number), switchable: false });
        expect(await login()).not.toBe(-CONNECT_NOT_ENABLED);
        await entitle(false, 0);
        expect(await opening()).toMatchObject({ open: false, mode: 'base_package' });
        expect(await login()).toBe(-CONNECT_NOT_ENABLED);
      });
      await withPlatformSettings(admin, { connect_opening_mode: 'entitlement', connect_min_level: 3 }, async () => {
        expect(await opening()).toEqual({ open: false, mode: 'entitlement', min_level: 3, switchable: false });
        expect(await login()).toBe(-CONNECT_NOT_ENABLED);
        await entitle(false, 3);
        expect(await opening()).toMatchObject({ open: true, mode: 'entitlement' });
        expect(await login()).not.toBe(-CONNECT_NOT_ENABLED);
      });
      await withPlatformSettings(admin, { connect_opening_mode: 'self_service' }, async () => {
        expect(await opening()).toMatchObject({ open: false, mode: 'self_service', switchable: true });
        const on = await a.client.put(`${PROJECTS}/${p.id}/connect`, { enabled: true }).expect(200);
        expect(on.body.connect_opening).toMatchObject({ open: true, mode: 'self_service', switchable: true });
        expect(await login()).not.toBe(-CONNECT_NOT_ENABLED);
      });
    });

    it('is refused with 409 outside the self_service mode, by PUT and by PATCH', async () => {
      const p = await create(a.client);
      for (const mode of ['base_package', 'entitlement'] as const) {
        await withPlatformSettings(admin, { connect_opening_mode: mode }, async () => {
          expectAdminError(await a.client.put(`${PROJECTS}/${p.id}/connect`, { enabled: true }), 409, CONNECT_NOT_SELF_SERVICE);
          expectAdminError(
            await a.client.patch(`${PROJECTS}/${p.id}`, { connect_enabled: true, device_limit: 2 }),
            409,
            CONNECT_NOT_SELF_SERVICE,
          );
        });
      }
      expect(await get(a.client, p.id)).toMatchObject({ connect_enabled: false, device_limit: 1 });
    });

    it('the author switches Connect on and off in the self_service mode; the platform admin may not', async () => {
      const p = await create(a.client);
      await withPlatformSettings(admin, { connect_opening_mode: 'self_service' }, async () => {
        const on = await a.client.put(`${PROJECTS}/${p.id}/connect`, { enabled: true }).expect(200);
        expect(on.body).toMatchObject({ id: p.id, connect_enabled: true });
        expect(on.body.api_secret).toMatch(MASKED);
        expect((await get(a.client, p.id)).connect_enabled).toBe(true);

        expectAdminError(await admin.put(`${PROJECTS}/${p.id}/connect`, { enabled: false }), 403, FORBIDDEN);
        expectAdminError(await a.client.put(`${PROJECTS}/${p.id}/connect`, { enabled: 'off' }), 400, BAD_REQUEST, 'enabled');
        expectAdminError(await a.client.put(`${PROJECTS}/${p.id}/connect`, {}), 400, BAD_REQUEST, 'enabled');
        expect((await get(a.client, p.id)).connect_enabled).toBe(true);

        await a.client.patch(`${PROJECTS}/${p.id}`, { connect_enabled: false }).expect(200);
        expect((await get(a.client, p.id)).connect_enabled).toBe(false);
        await a.client.put(`${PROJECTS}/${p.id}/connect`, { enabled: false }).expect(200);

        const created = await create(a.client, { connect_enabled: true });
        expect(created.connect_enabled).toBe(true);
      });
    });
  });

  describe('delete', () => {
    it('answers 204, after which the project is gone everywhere', async () => {
      const p = await create(a.client);
      await admin.put(`${PROJECTS}/${p.id}/interfaces/card_login`, { authorized: false, daily_quota: 1 }).expect(200);
      const res = await a.client.delete(`${PROJECTS}/${p.id}`).expect(204);
      expect(res.text).toBe('');
      expectAdminError(await a.client.get(`${PROJECTS}/${p.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await admin.get(`${PROJECTS}/${p.id}`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await a.client.get(`${PROJECTS}/${p.id}/interfaces`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await a.client.patch(`${PROJECTS}/${p.id}`, { device_limit: 2 }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await a.client.delete(`${PROJECTS}/${p.id}`), 404, PROJECT_NOT_FOUND);
      expect((await list(a.client)).items.map((x) => x.id)).not.toContain(p.id);
      expect((await list(admin, `&q=${p.program_id}`)).total).toBe(0);
    });

    it('lets a platform admin delete any project', async () => {
      const p = await create(b.client);
      await admin.delete(`${PROJECTS}/${p.id}`).expect(204);
      expectAdminError(await b.client.get(`${PROJECTS}/${p.id}`), 404, PROJECT_NOT_FOUND);
    });
  });

  describe('tenancy', () => {
    it("another author gets 404, never 403, for everything on A's project, and nothing changes", async () => {
      const p = await create(a.client);
      const before = await get(a.client, p.id);
      const base = `${PROJECTS}/${p.id}`;
      expectAdminError(await b.client.get(base), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.patch(base, { name: 'Taken over', device_limit: 9 }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.patch(base, { basic_package: false }), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.delete(base), 404, PROJECT_NOT_FOUND);
      for (const s of SECRETS) expectAdminError(await b.client.post(`${base}/secrets/${s}/rotate`), 404, PROJECT_NOT_FOUND);
      expectAdminError(await b.client.get(`${base}/interfaces`), 404, PROJECT_NOT_FOUND);
      await withPlatformSettings(admin, { connect_opening_mode: 'self_service' }, async () => {
        expectAdminError(await b.client.put(`${base}/connect`, { enabled: true }), 404, PROJECT_NOT_FOUND);
      });
      expect(await get(a.client, p.id)).toEqual(before);
      await a.client.get(base).expect(200);
    });

    it("an author's list holds only its own projects, even when it asks for another owner's", async () => {
      const mine = await create(b.client);
      const theirs = await create(a.client);
      const own = await list(b.client);
      expect(own.items.every((p) => p.owner_id === b.id)).toBe(true);
      expect(own.items.map((p) => p.id)).toContain(mine.id);
      expect(own.items.map((p) => p.id)).not.toContain(theirs.id);
      const asking = await list(b.client, `&owner_id=${a.id}`);
      expect(asking.items.every((p) => p.owner_id === b.id)).toBe(true);
      expect(asking.items.map((p) => p.id)).not.toContain(theirs.id);
      expect((await list(b.client, `&q=${theirs.program_id}`)).total).toBe(0);
    });

    it('a platform admin sees every project and filters by owner, status and name or program ID', async () => {
      const c = await admin.createAuthor();
      const first = await create(c.client, { name: unique('Alpha ') });
      const second = await create(c.client, { name: unique('Beta ') });
      await c.client.patch(`${PROJECTS}/${second.id}`, { status: 'disabled' }).expect(200);
      const fromA = await create(a.client);

      const byOwner = await list(admin, `&owner_id=${c.id}`);
      expect(byOwner.total).toBe(2);
      expect(byOwner.items.map((p) => p.id)).toEqual([second.id, first.id]); // newest first
      expect(byOwner.items.every((p) => p.api_secret !== undefined && MASKED.test(String(p.api_secret)))).toBe(true);

      const everyone = await list(admin);
      expect(everyone.total).toBeGreaterThanOrEqual(3);
      expect((await list(admin, `&q=${fromA.program_id}`)).items.map((p) => p.id)).toEqual([fromA.id]);
      expect((await list(admin, `&owner_id=${c.id}&status=disabled`)).items.map((p) => p.id)).toEqual([second.id]);
      expect((await list(admin, `&owner_id=${c.id}&status=active`)).items.map((p) => p.id)).toEqual([first.id]);
      expect((await list(admin, `&q=${encodeURIComponent(String(first.name).toLowerCase())}`)).items.map((p) => p.id)).toEqual([
        first.id,
      ]);
      expect((await list(c.client, '&status=disabled')).items.map((p) => p.id)).toEqual([second.id]);
    });

    it('pages the list with {items, total, page, page_size} and refuses bad paging or filters', async () => {
      const c = await admin.createAuthor();
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await create(c.client));
      const page1 = (await c.client.get(`${PROJECTS}?page_size=2`).expect(200)).body;
      expect(page1).toMatchObject({ total: 3, page: 1, page_size: 2 });
      expect(page1.items.map((p: Project) => p.id)).toEqual([made[2].id, made[1].id]);
      const page2 = (await c.client.get(`${PROJECTS}?page_size=2&page=2`).expect(200)).body;
      expect(page2.items.map((p: Project) => p.id)).toEqual([made[0].id]);
      const defaults = (await c.client.get(PROJECTS).expect(200)).body;
      expect(defaults).toMatchObject({ total: 3, page: 1, page_size: 20 });

      for (const [query, field] of [
        ['page_size=101', 'page_size'],
        ['page_size=0', 'page_size'],
        ['page=0', 'page'],
        ['owner_id=alice', 'owner_id'],
        ['status=gone', 'status'],
        ['secret=1', 'secret'],
      ]) {
        expectAdminError(await admin.get(`${PROJECTS}?${query}`), 400, BAD_REQUEST, field);
      }
    });

    it('answers 404 for an id that is not a UUID, and for an unknown one', async () => {
      for (const id of ['12345678', 'not-a-uuid', '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6']) {
        expectAdminError(await a.client.get(`${PROJECTS}/${id}`), 404, PROJECT_NOT_FOUND);
        expectAdminError(await admin.patch(`${PROJECTS}/${id}`, { device_limit: 2 }), 404, PROJECT_NOT_FOUND);
        expectAdminError(await admin.delete(`${PROJECTS}/${id}`), 404, PROJECT_NOT_FOUND);
        expectAdminError(await a.client.post(`${PROJECTS}/${id}/secrets/api_secret/rotate`), 404, PROJECT_NOT_FOUND);
        expectAdminError(await admin.get(`${PROJECTS}/${id}/interfaces`), 404, PROJECT_NOT_FOUND);
      }
    });

    it('the program ID is not accepted where the internal key is expected', async () => {
      const p = await create(a.client);
      expectAdminError(await a.client.get(`${PROJECTS}/${p.program_id}`), 404, PROJECT_NOT_FOUND);
    });

    it('answers 401 on every project route without a valid token', async () => {
      const p = await create(a.client);
      const base = `${PROJECTS}/${p.id}`;
      for (const res of [
        await t.http().get(PROJECTS),
        await t.http().post(PROJECTS).send({ name: 'x' }),
        await t.http().get(base),
        await t.http().patch(base).send({ device_limit: 2 }),
        await t.http().delete(base),
        await t.http().post(`${base}/secrets/api_secret/rotate`),
        await t.http().get(`${base}/interfaces`),
        await t.http().put(`${base}/entitlements`).send({ basic_package: true, plan_level: 0, licence_verify: false }),
        await t.http().put(`${base}/connect`).send({ enabled: true }),
        await t.http().get(base).set('Authorization', 'Bearer not-a-token'),
      ]) {
        expectAdminError(res, 401, UNAUTHENTICATED);
      }
      await a.client.get(base).expect(200);
    });
  });

  it('never writes a clear secret to a log line', async () => {
    const p = await create(a.client);
    const rotated = await a.client.post(`${PROJECTS}/${p.id}/secrets/transport_key/rotate`).expect(200);
    shown.push(rotated.body.value);
    expect(shown.length).toBeGreaterThan(40);
    expect(t.logs.length).toBeGreaterThan(0);
    const all = t.logs.join('\n');
    for (const secret of shown) expect(all).not.toContain(secret);
  });
});

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, source[k]]));
}
