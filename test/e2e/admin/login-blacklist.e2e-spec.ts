import type { Response } from 'supertest';
import { insertCard } from '../../support/cards';
import { connectLogin, expectConnectFailure } from '../../support/connect';
import { expectLegacyFailure, md5Signed } from '../../support/legacy';
import { signedPost } from '../../support/signing';
import { cardHeartbeat, CODES, expectStandardFailure, sdkLogin, v3Login } from '../../support/standard';
import { startTestApp } from '../../support/test-app';
import { buildWorld, World } from '../../support/world';

/**
 * The login blacklist (decisions §24): a device code or an address / CIDR block of a project is
 * refused with 40002 BLACKLISTED (HTTP 403) in every family's envelope before the card rules, until
 * its entry expires. Every request of this file comes from 198.51.100.20 (a trusted proxy's
 * X-Forwarded-For), so address entries are tested against that address.
 */
const CLIENT_ADDRESS = '198.51.100.20';
const BLACKLISTED = CODES.BLACKLISTED;

let world: World;

interface Family {
  name: string;
  /** A request of the family from `machine` with `cardKey`. */
  send(cardKey: string, machine: string): PromiseLike<Response>;
  expectOk(res: Response): void;
  /** 40002 in the family's envelope, in the words of the entry's kind (not "domain or IP"). */
  expectBlacklisted(res: Response, kind: 'device' | 'address'): void;
}

const MESSAGES = { device: 'This device is blacklisted', address: 'This address is blacklisted' };

function expectStandardBlacklisted(res: Response, kind: 'device' | 'address'): void {
  expectStandardFailure(res, 403, BLACKLISTED);
  expect(res.body.msg).toBe(MESSAGES[kind]);
}

const standardOk = (res: Response) => expect({ http: res.status, code: res.body.code }).toEqual({ http: 200, code: 0 });
const legacyOk = (res: Response) => expect({ http: res.status, code: res.body.code }).toEqual({ http: 200, code: 1 });
const legacyForm = (path: string, fields: Record<string, string>) =>
  world.t.http().post(path).type('form').send(new URLSearchParams(fields).toString());

const FAMILIES: Family[] = [
  {
    name: 'Connect',
    send: (key, machine) => connectLogin(world.t, world.project.program_id, { user_key: key, serial: machine }),
    expectOk: (res) => expect({ http: res.status, code: res.body.code }).toEqual({ http: 200, code: 1 }),
    expectBlacklisted: (res, kind) => {
      expectConnectFailure(res, 403, -BLACKLISTED);
      expect(res.body.reason).toBe(MESSAGES[kind]);
    },
  },
  {
    name: 'V3',
    send: (key, machine) =>
      v3Login(world.t, world.project.api_secret, { app: world.project.program_id, kami: key, imei: machine }),
    expectOk: standardOk,
    expectBlacklisted: (res, kind) => expectStandardBlacklisted(res, kind),
  },
  {
    name: 'SDK card login',
    send: (key, machine) =>
      sdkLogin(world.t, world.project.api_secret, { app: world.project.program_id, card_key: key, machine_id: machine }),
    expectOk: standardOk,
    expectBlacklisted: (res, kind) => expectStandardBlacklisted(res, kind),
  },
  {
    name: 'legacy /api/kmlogon',
    send: (key, machine) => legacyForm('/api/kmlogon', { app: world.project.program_id, kami: key, imei: machine }),
    expectOk: legacyOk,
    expectBlacklisted: (res, kind) => {
      expectLegacyFailure(res, 403, BLACKLISTED);
      expect(res.body.msg).toBe(MESSAGES[kind]);
    },
  },
  {
    name: 'legacy /api/app action kmlogon',
    send: (key, machine) =>
      legacyForm(
        '/api/app',
        md5Signed({ api: 'kmlogon', app: world.project.program_id, kami: key, imei: machine }, world.project.legacy_secret),
      ),
    expectOk: legacyOk,
    expectBlacklisted: (res, kind) => {
      expectLegacyFailure(res, 403, BLACKLISTED);
      expect(res.body.msg).toBe(MESSAGES[kind]);
    },
  },
];

async function freshCard(): Promise<string> {
  return (await insertCard(world.t, world.project.id, { deviceLimit: 5 })).code;
}

async function blacklist(kind: 'device' | 'address', value: string, expiresAt: string | null = null): Promise<number> {
  const res = await world.author.post(`/admin/v1/projects/${world.project.id}/login-blacklist`, {
    kind,
    value,
    note: 'chargeback',
    expires_at: expiresAt,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function unlist(id: number): Promise<void> {
  expect((await world.author.delete(`/admin/v1/projects/${world.project.id}/login-blacklist/${id}`)).status).toBe(204);
}

describe('login blacklist (e2e)', () => {
  beforeAll(async () => {
    world = await buildWorld({ connect: true, t: await startTestApp({}, { clientAddress: CLIENT_ADDRESS }) });
  });
  afterAll(() => world?.close());

  describe.each(FAMILIES.map((family) => [family.name, family] as const))('%s', (_name, family) => {
    it('refuses a blacklisted device and only that device, before the card rules', async () => {
      const key = await freshCard();
      family.expectOk(await family.send(key, 'good-pc'));
      const id = await blacklist('device', 'stolen-pc');
      try {
        family.expectBlacklisted(await family.send(key, 'stolen-pc'), 'device');
        // Before the card rules: even a key that matches no card is refused as blacklisted.
        family.expectBlacklisted(await family.send('NO-SUCH-CARD', 'stolen-pc'), 'device');
        family.expectOk(await family.send(key, 'good-pc'));
      } finally {
        await unlist(id);
      }
      // Removed: the device logs in again at once (the cache generation moved).
      family.expectOk(await family.send(key, 'stolen-pc'));
    });

    it('refuses the address by itself and by CIDR block; an expired entry refuses nothing', async () => {
      const key = await freshCard();
      for (const value of [CLIENT_ADDRESS, '198.51.100.0/24']) {
        const id = await blacklist('address', value);
        family.expectBlacklisted(await family.send(key, 'pc'), 'address');
        await unlist(id);
      }
      const expired = await blacklist('address', '198.51.0.0/16', new Date(Date.now() - 1000).toISOString());
      const other = await blacklist('address', '203.0.113.0/24');
      try {
        family.expectOk(await family.send(key, 'pc'));
      } finally {
        await unlist(expired);
        await unlist(other);
      }
    });
  });

  it('refuses SDK card heartbeats of a blacklisted device and address, so a session ends within one interval', async () => {
    const key = await freshCard();
    const login = await sdkLogin(world.t, world.project.api_secret, {
      app: world.project.program_id,
      card_key: key,
      machine_id: 'hb-pc',
    });
    standardOk(login);
    const token = login.body.data.session_token;
    expect((await cardHeartbeat(world.t, token, 'hb-pc')).status).toBe(200);
    const id = await blacklist('device', 'hb-pc');
    expectStandardBlacklisted(await cardHeartbeat(world.t, token, 'hb-pc'), 'device');
    await unlist(id);
    const block = await blacklist('address', '198.51.100.0/25');
    expectStandardBlacklisted(await cardHeartbeat(world.t, token, 'hb-pc'), 'address');
    await unlist(block);
    expect((await cardHeartbeat(world.t, token, 'hb-pc')).status).toBe(200);
  });

  it('refuses program-user registration and login from a blacklisted device', async () => {
    const user = (path: string, machine: string) =>
      signedPost(
        world.t,
        path,
        { app: world.project.program_id, username: 'bob', password: 'bob-password-1', machine_id: machine },
        'json',
        world.project.api_secret,
      );
    standardOk(await user('/api/v1/users/register', 'bob-pc'));
    const id = await blacklist('device', 'bob-pc');
    expectStandardBlacklisted(await user('/api/v1/users/login', 'bob-pc'), 'device');
    expectStandardFailure(await user('/api/v1/users/register', 'bob-pc'), 403, BLACKLISTED);
    await unlist(id);
    standardOk(await user('/api/v1/users/login', 'bob-pc'));
  });

  it('refuses the card-holder portal from a blacklisted address', async () => {
    const key = await freshCard();
    const info = () =>
      world.t.http().post('/api/v1/portal/cards/info').send({ program_id: world.project.program_id, card_key: key });
    expect((await info()).status).toBe(200);
    const id = await blacklist('address', '198.51.100.20/32');
    expectStandardBlacklisted(await info(), 'address');
    await unlist(id);
  });

  describe('admin resource', () => {
    const path = () => `/admin/v1/projects/${world.project.id}/login-blacklist`;

    it('normalizes blocks, refuses duplicates and bad values, changes note and expiry, and lists by kind', async () => {
      const created = await world.author.post(path(), { kind: 'address', value: '2001:DB8:0:0:1::5/64' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ kind: 'address', value: '2001:db8::/64', note: null, expires_at: null, active: true });
      expect((await world.author.post(path(), { kind: 'address', value: '2001:db8::/64' })).body.error.code).toBe(
        CODES.BLACKLIST_ENTRY_EXISTS,
      );
      expect((await world.author.post(path(), { kind: 'address', value: 'example.com' })).status).toBe(400);
      expect((await world.author.post(path(), { kind: 'address', value: '10.0.0.0/33' })).status).toBe(400);
      const past = new Date(Date.now() - 60_000).toISOString();
      const changed = await world.author.patch(`${path()}/${created.body.id}`, { note: 'old office', expires_at: past });
      expect(changed.body).toMatchObject({ note: 'old office', expires_at: past, active: false });
      // A PATCH changes the note and the expiry only: null clears them; what is refused stays.
      const entry = `${path()}/${created.body.id}`;
      expect((await world.author.patch(entry, { value: '2001:db8:1::/64' })).status).toBe(400);
      expect((await world.author.patch(entry, { kind: 'device', note: 'x' })).status).toBe(400);
      expect((await world.author.patch(entry, { expires_at: 'tomorrow' })).status).toBe(400);
      const cleared = await world.author.patch(entry, { note: null, expires_at: null });
      expect(cleared.body).toMatchObject({ value: '2001:db8::/64', note: null, expires_at: null, active: true });
      const listed = await world.author.get(`${path()}?kind=address`);
      expect(listed.body.items.map((item: { value: string }) => item.value)).toContain('2001:db8::/64');
      expect(
        (await world.author.get(`${path()}?kind=device`)).body.items.map((item: { kind: string }) => item.kind),
      ).not.toContain('address');
      await unlist(created.body.id);
    });

    it("keeps each author to their own projects' lists", async () => {
      const intruder = await world.admin.createAuthor();
      const other = await intruder.client.createProject();
      const mine = await world.author.post(path(), { kind: 'device', value: 'tenant-pc' });
      expect((await intruder.client.get(path())).body.error.code).toBe(CODES.PROJECT_NOT_FOUND);
      expect(
        (await intruder.client.delete(`/admin/v1/projects/${other.id}/login-blacklist/${mine.body.id}`)).body.error.code,
      ).toBe(CODES.BLACKLIST_ENTRY_NOT_FOUND);
      await unlist(mine.body.id);
    });
  });
});
