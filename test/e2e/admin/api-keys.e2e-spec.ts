import { DataSource } from 'typeorm';
import { Secret, TOTP } from 'otpauth';
import { AdminClient } from '../../support/admin-client';
import {
  API_KEY_ADDRESS_REFUSED,
  API_KEY_NOT_ACCEPTED,
  API_KEY_NOT_FOUND,
  API_KEY_SCOPE_MISSING,
  BAD_REQUEST,
  expectAdminError,
  PROJECT_NOT_FOUND,
  UNAUTHENTICATED,
} from '../../support/admin-errors';
import { insertCard } from '../../support/cards';
import { buildWorld, World } from '../../support/world';

/**
 * API keys (decisions §19): `Bearer ck_…` acts as the key's owner, narrowed to its scopes, projects
 * and CIDRs. Requests name their address in X-Forwarded-For, believed from the loopback proxy
 * (TRUST_PROXY), as a shop behind a load balancer would be seen.
 */
const SHOP_ADDRESS = '198.51.100.7';
let world: World;
let db: DataSource;

interface Created {
  id: string;
  key: string;
}

async function createKey(client: AdminClient, body: object): Promise<Created> {
  const res = await client.post('/admin/v1/api-keys', { name: 'shop', ...body });
  expect(res.status).toBe(201);
  return res.body;
}

/** A request with the key, from `address`. */
function withKey(key: string, method: 'get' | 'post' | 'patch' | 'delete', path: string, address = SHOP_ADDRESS) {
  return world.t.http()[method](path).set('Authorization', `Bearer ${key}`).set('X-Forwarded-For', address);
}

const cardsOf = (projectId: string) => `/admin/v1/projects/${projectId}/cards`;

describe('API keys (e2e)', () => {
  beforeAll(async () => {
    world = await buildWorld({ env: { TRUST_PROXY: '127.0.0.1' } });
    db = world.t.app.get(DataSource);
  });
  afterAll(() => world?.close());

  it('answers the key once, lists it without the key, and stores only a keyed hash', async () => {
    const created = await createKey(world.author, { scopes: ['cards:read'] });
    expect(created.key).toMatch(/^ck_[0-9A-Za-z]{40}$/);
    const list = await world.author.get('/admin/v1/api-keys').expect(200);
    const listed = list.body.items.find((k: { id: string }) => k.id === created.id);
    expect(listed).toMatchObject({
      name: 'shop',
      prefix: created.key.slice(0, 11),
      scopes: ['cards:read'],
      project_ids: null,
      allowed_cidrs: null,
      last_used_at: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.key.slice(11));
    const [row] = await db.query(`SELECT row_to_json(k)::text AS json, key_hash FROM admin_api_keys k WHERE id = $1`, [
      created.id,
    ]);
    expect(row.json).not.toContain(created.key.slice(11));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    // Another account sees none of them.
    expect((await world.admin.get('/admin/v1/api-keys').expect(200)).body.items.map((k: { id: string }) => k.id)).not.toContain(
      created.id,
    );
  });

  it('works only within its scopes', async () => {
    const card = await insertCard(world.t, world.project.id);
    const { key } = await createKey(world.author, { scopes: ['cards:read'] });
    expect((await withKey(key, 'get', cardsOf(world.project.id))).status).toBe(200);
    expect((await withKey(key, 'get', `${cardsOf(world.project.id)}/${card.id}`)).status).toBe(200);
    const refused = await withKey(key, 'patch', `${cardsOf(world.project.id)}/${card.id}`).send({ status: 'banned' });
    expectAdminError(refused, 403, API_KEY_SCOPE_MISSING);
    expect(refused.body.error.details).toEqual({ scope: 'cards:write' });
    expectAdminError(await withKey(key, 'get', `/admin/v1/projects/${world.project.id}/card-types`), 403, API_KEY_SCOPE_MISSING);
    expectAdminError(await withKey(key, 'get', `/admin/v1/projects/${world.project.id}/webhooks`), 403, API_KEY_SCOPE_MISSING);
    // Nothing was changed by the refused write.
    const after = await world.author.get(`${cardsOf(world.project.id)}/${card.id}`).expect(200);
    expect(after.body.status).not.toBe('banned');
  });

  it('shows card keys in webhook delivery payloads in full only to a key that may read cards', async () => {
    await world.admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    const hooks = `/admin/v1/projects/${world.project.id}/webhooks`;
    const hook = (await world.author.post(hooks, { url: 'http://127.0.0.1:9/nobody', events: ['card.banned'] }).expect(201)).body;
    const card = await insertCard(world.t, world.project.id);
    await world.author.patch(`${cardsOf(world.project.id)}/${card.id}`, { status: 'banned' }).expect(200);
    await world.author.patch(`${hooks}/${hook.id}`, { enabled: false }).expect(200);
    const codeSeenBy = async (
      request: () => Promise<{ status: number; body: { items: Array<{ payload: { data: { card_code: string } } }> } }>,
    ) => {
      const res = await request();
      expect(res.status).toBe(200);
      return res.body.items[0].payload.data.card_code;
    };
    const path = `${hooks}/${hook.id}/deliveries`;
    const hooksOnly = (await createKey(world.author, { scopes: ['webhooks:read'] })).key;
    const withCards = (await createKey(world.author, { scopes: ['webhooks:read', 'cards:read'] })).key;
    expect(await codeSeenBy(() => withKey(hooksOnly, 'get', path))).toBe(`${card.code.slice(0, 4)}…${card.code.slice(-4)}`);
    expect(await codeSeenBy(() => withKey(withCards, 'get', path))).toBe(card.code);
    expect(await codeSeenBy(() => world.author.get(path))).toBe(card.code);
  });

  it('cannot make keys, reach account routes or platform administration', async () => {
    const { key } = await createKey(world.author, { scopes: ['cards:read', 'cards:write', 'webhooks:write'] });
    const refusals = [
      withKey(key, 'post', '/admin/v1/api-keys').send({ name: 'more', scopes: ['cards:read'] }),
      withKey(key, 'get', '/admin/v1/api-keys'),
      withKey(key, 'get', '/admin/v1/auth/me'),
      withKey(key, 'post', '/admin/v1/auth/logout'),
      withKey(key, 'post', '/admin/v1/auth/2fa/enrol'),
      withKey(key, 'get', '/admin/v1/projects'),
      withKey(key, 'get', `/admin/v1/projects/${world.project.id}`),
      withKey(key, 'get', '/admin/v1/audit'),
    ];
    for (const res of await Promise.all(refusals)) expectAdminError(res, 403, API_KEY_NOT_ACCEPTED);
    expect(
      (await world.author.get('/admin/v1/api-keys').expect(200)).body.items.some((k: { name: string }) => k.name === 'more'),
    ).toBe(false);
  });

  it("keeps to its projects: another project of the owner, or another author's, is not found", async () => {
    const second = await world.author.createProject();
    const other = await world.admin.createAuthor();
    const foreign = await other.client.createProject();
    const limited = await createKey(world.author, { scopes: ['cards:read'], project_ids: [world.project.id] });
    expect((await withKey(limited.key, 'get', cardsOf(world.project.id))).status).toBe(200);
    expectAdminError(await withKey(limited.key, 'get', cardsOf(second.id)), 404, PROJECT_NOT_FOUND);
    const open = await createKey(world.author, { scopes: ['cards:read'] });
    expect((await withKey(open.key, 'get', cardsOf(second.id))).status).toBe(200);
    expectAdminError(await withKey(open.key, 'get', cardsOf(foreign.id)), 404, PROJECT_NOT_FOUND);
    // A key cannot be limited to a project its owner does not have.
    expectAdminError(
      await world.author.post('/admin/v1/api-keys', { name: 'x', scopes: ['cards:read'], project_ids: [foreign.id] }),
      404,
      PROJECT_NOT_FOUND,
      'project_ids',
    );
  });

  it('is refused from outside its CIDRs (IPv4 and IPv6), and the refusal is in the audit trail', async () => {
    const { id, key } = await createKey(world.author, {
      scopes: ['cards:read'],
      allowed_cidrs: ['198.51.100.0/24', '2001:db8::/32'],
    });
    expect((await withKey(key, 'get', cardsOf(world.project.id), '198.51.100.200')).status).toBe(200);
    expect((await withKey(key, 'get', cardsOf(world.project.id), '2001:db8::5')).status).toBe(200);
    expectAdminError(await withKey(key, 'get', cardsOf(world.project.id), '203.0.113.9'), 403, API_KEY_ADDRESS_REFUSED);
    expectAdminError(await withKey(key, 'get', cardsOf(world.project.id), '2001:db9::5'), 403, API_KEY_ADDRESS_REFUSED);
    const [row] = await db.query(
      `SELECT actor_username, ip, result_code FROM admin_audit WHERE actor_api_key_id = $1 AND outcome = 'refused' ORDER BY id LIMIT 1`,
      [id],
    );
    expect(row).toEqual({
      actor_username: world.authorAccount.username,
      ip: '203.0.113.9',
      result_code: API_KEY_ADDRESS_REFUSED,
    });
  });

  it('refuses bad keys at creation: unknown scope, bad CIDR, past expiry, no scope; nothing is made', async () => {
    const before = (await world.author.get('/admin/v1/api-keys').expect(200)).body.total;
    expectAdminError(
      await world.author.post('/admin/v1/api-keys', { name: 'x', scopes: ['cards:everything'] }),
      400,
      BAD_REQUEST,
      'scopes',
    );
    expectAdminError(await world.author.post('/admin/v1/api-keys', { name: 'x', scopes: [] }), 400, BAD_REQUEST, 'scopes');
    expectAdminError(
      await world.author.post('/admin/v1/api-keys', { name: 'x', scopes: ['cards:read'], allowed_cidrs: ['10.0.0.0/33'] }),
      400,
      BAD_REQUEST,
      'allowed_cidrs',
    );
    expectAdminError(
      await world.author.post('/admin/v1/api-keys', { name: 'x', scopes: ['cards:read'], allowed_cidrs: ['shop.example'] }),
      400,
      BAD_REQUEST,
      'allowed_cidrs',
    );
    const past = new Date(Date.now() - 1000).toISOString();
    expectAdminError(
      await world.author.post('/admin/v1/api-keys', { name: 'x', scopes: ['cards:read'], expires_at: past }),
      400,
      BAD_REQUEST,
      'expires_at',
    );
    expect((await world.author.get('/admin/v1/api-keys').expect(200)).body.total).toBe(before);
  });

  it('answers 401 once expired or revoked, and when its owner is disabled', async () => {
    const path = cardsOf(world.project.id);
    const expiring = await createKey(world.author, {
      scopes: ['cards:read'],
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect((await withKey(expiring.key, 'get', path)).status).toBe(200);
    await db.query(`UPDATE admin_api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.id]);
    expectAdminError(await withKey(expiring.key, 'get', path), 401, UNAUTHENTICATED);

    const revoked = await createKey(world.author, { scopes: ['cards:read'] });
    expectAdminError(await world.admin.delete(`/admin/v1/api-keys/${revoked.id}`), 404, API_KEY_NOT_FOUND);
    expect((await withKey(revoked.key, 'get', path)).status).toBe(200);
    // Revocations racing each other all answer 204, and the key stays revoked once.
    const racing = await Promise.all(Array.from({ length: 5 }, () => world.author.delete(`/admin/v1/api-keys/${revoked.id}`)));
    expect(racing.map((r) => r.status)).toEqual(Array(5).fill(204));
    const [{ revoked_at: firstRevocation }] = await db.query(`SELECT revoked_at FROM admin_api_keys WHERE id = $1`, [revoked.id]);
    await world.author.delete(`/admin/v1/api-keys/${revoked.id}`).expect(204);
    expect((await db.query(`SELECT revoked_at FROM admin_api_keys WHERE id = $1`, [revoked.id]))[0].revoked_at).toEqual(
      firstRevocation,
    );
    expectAdminError(await world.author.delete('/admin/v1/api-keys/not-a-uuid'), 404, API_KEY_NOT_FOUND);
    expectAdminError(await withKey(revoked.key, 'get', path), 401, UNAUTHENTICATED);
    const listed = (await world.author.get('/admin/v1/api-keys').expect(200)).body.items.find(
      (k: { id: string }) => k.id === revoked.id,
    );
    expect(listed.revoked_at).not.toBeNull();

    expectAdminError(await withKey(`ck_${'x'.repeat(40)}`, 'get', path), 401, UNAUTHENTICATED);
    expectAdminError(await withKey('ck_short', 'get', path), 401, UNAUTHENTICATED);

    const owner = await world.admin.createAuthor();
    const project = await owner.client.createProject();
    const ownerKey = await createKey(owner.client, { scopes: ['cards:read'] });
    expect((await withKey(ownerKey.key, 'get', cardsOf(project.id))).status).toBe(200);
    await world.admin.patch(`/admin/v1/authors/${owner.id}`, { status: 'disabled' }).expect(200);
    expectAdminError(await withKey(ownerKey.key, 'get', cardsOf(project.id)), 401, UNAUTHENTICATED);
    // Disabling suspends the key; enabling the owner again brings it back.
    await world.admin.patch(`/admin/v1/authors/${owner.id}`, { status: 'active' }).expect(200);
    expect((await withKey(ownerKey.key, 'get', cardsOf(project.id))).status).toBe(200);
  });

  it("is revoked when a platform admin resets its owner's password, the way back from a stolen account", async () => {
    const owner = await world.admin.createAuthor();
    const project = await owner.client.createProject();
    const key = await createKey(owner.client, { scopes: ['cards:read'] });
    expect((await withKey(key.key, 'get', cardsOf(project.id))).status).toBe(200);
    await world.admin.patch(`/admin/v1/authors/${owner.id}`, { password: 'a-new-password-1' }).expect(200);
    expectAdminError(await withKey(key.key, 'get', cardsOf(project.id)), 401, UNAUTHENTICATED);
    const [{ revoked_at }] = await db.query(`SELECT revoked_at FROM admin_api_keys WHERE id = $1`, [key.id]);
    expect(revoked_at).not.toBeNull();
  });

  it('records last use at most once a minute, however many requests come at once', async () => {
    const { id, key } = await createKey(world.author, { scopes: ['cards:read'] });
    const lastUsed = async () =>
      (await world.author.get('/admin/v1/api-keys').expect(200)).body.items.find((k: { id: string }) => k.id === id).last_used_at;
    expect(await lastUsed()).toBeNull();
    const answers = await Promise.all(Array.from({ length: 20 }, () => withKey(key, 'get', cardsOf(world.project.id))));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const first = await lastUsed();
    expect(Date.now() - Date.parse(first)).toBeLessThan(60_000);
    await withKey(key, 'get', cardsOf(world.project.id)).expect(200);
    expect(await lastUsed()).toBe(first);
  });

  it("names the key in the audit rows of the writes it makes, as its owner's", async () => {
    const card = await insertCard(world.t, world.project.id);
    const { id, key } = await createKey(world.author, { scopes: ['cards:write', 'cards:read'] });
    await withKey(key, 'patch', `${cardsOf(world.project.id)}/${card.id}`)
      .send({ status: 'banned' })
      .expect(200);
    const audit = await world.author.get(`/admin/v1/audit?resource_id=${card.id}&resource_type=cards`).expect(200);
    expect(audit.body.items[0]).toMatchObject({
      actor_id: world.authorAccount.id,
      actor_username: world.authorAccount.username,
      actor_api_key_id: id,
      outcome: 'success',
    });
    // The key's creation is audited too, without the key.
    const made = await world.author.get(`/admin/v1/audit?resource_type=api-keys&resource_id=${id}`).expect(200);
    expect(made.body.items).toHaveLength(1);
    expect(JSON.stringify(made.body)).not.toContain(key.slice(11));
  });

  it('needs a fresh two-factor code to make a key when the account has two-factor sign-in', async () => {
    const account = await world.admin.createAuthor();
    const enrol = await account.client.post('/admin/v1/auth/2fa/enrol').expect(201);
    const totp = new TOTP({ secret: Secret.fromBase32(enrol.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await account.client.post('/admin/v1/auth/2fa/confirm', { code: totp.generate() }).expect(200);
    const body = { name: 'shop', scopes: ['cards:read'] };
    expect((await account.client.post('/admin/v1/api-keys', body)).status).toBe(403);
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    const made = await account.client.post('/admin/v1/api-keys').set('X-Svc-2fa-Code', next).send(body);
    expect(made.status).toBe(201);
  });
});
