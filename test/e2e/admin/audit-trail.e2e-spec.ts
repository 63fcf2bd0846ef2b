import { DataSource } from 'typeorm';
import { AdminClient, login } from '../../support/admin-client';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../../support/test-app';

interface AuditRow {
  at: string;
  actor_id: string | null;
  actor_username: string | null;
  actor_role: string | null;
  action: string;
  outcome: string;
  result_code: number | null;
  resource_type: string;
  resource_id: string | null;
  project_id: string | null;
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;
  ip: string;
  request_id: string;
}

describe('admin audit trail (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
  });
  afterAll(() => t.close());

  const trail = async (client: AdminClient, query: Record<string, string> = {}): Promise<AuditRow[]> =>
    (await client.get(`/admin/v1/audit?${new URLSearchParams({ page_size: '100', ...query })}`).expect(200)).body.items;

  it('records a card ban with who, when, from where, and the status before and after', async () => {
    const author = await admin.createAuthor();
    const project = await author.client.createProject();
    const batch = await author.client
      .post(`/admin/v1/projects/${project.id}/cards`, { count: 1, duration_seconds: 3600 })
      .expect(201);
    const card = batch.body.items[0];
    const started = Date.now();
    const ban = await author.client
      .patch(`/admin/v1/projects/${project.id}/cards/${card.id}`, { status: 'banned' })
      .set('X-Request-Id', 'audit-ban-0001')
      .expect(200);
    expect(ban.body.status).toBe('banned');

    const [row] = await trail(author.client, { action: 'cards.ban' });
    expect(row).toMatchObject({
      actor_id: author.id,
      actor_username: author.username,
      actor_role: 'author',
      action: 'cards.ban',
      outcome: 'success',
      resource_type: 'cards',
      resource_id: String(card.id),
      project_id: project.id,
      request_id: 'audit-ban-0001',
      changes: { before: { status: 'unused' }, after: { status: 'banned' } },
    });
    expect(row.ip).toBeTruthy();
    expect(Math.abs(new Date(row.at).getTime() - started)).toBeLessThan(60_000);
    // The platform admin sees it too; the card key itself is in no row.
    const all = await trail(admin, { project_id: project.id });
    expect(all.map((r) => r.action)).toEqual(expect.arrayContaining(['cards.ban', 'cards.create', 'projects.create']));
    expect(JSON.stringify(all)).not.toContain(card.code);
  });

  it('shows an author only its own projects and account; filters by actor and time; exports CSV', async () => {
    const alice = await admin.createAuthor();
    const bob = await admin.createAuthor();
    const project = await alice.client.createProject();
    await bob.client.createProject();
    const aliceRows = await trail(alice.client);
    expect(aliceRows.length).toBeGreaterThan(0);
    expect(aliceRows.every((r) => r.project_id === project.id || r.actor_id === alice.id)).toBe(true);
    expect(await trail(alice.client, { actor: bob.username })).toEqual([]);
    expect(await trail(admin, { actor: bob.username, from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    const csv = await alice.client.get('/admin/v1/audit/export.csv').expect(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toBe(
      'id,at,actor_username,actor_role,actor_id,actor_api_key_id,action,outcome,result_code,resource_type,resource_id,project_id,method,route,changes,ip,request_id',
    );
    expect(csv.text).toContain('projects.create');
    expect(csv.text).not.toContain(bob.username);
  });

  it('never keeps a secret: passwords, project secrets, rotated keys, TOTP secrets and codes', async () => {
    const author = await admin.createAuthor({ password: 'very-secret-password-1' });
    await admin.patch(`/admin/v1/authors/${author.id}`, { password: 'another-secret-password-2' }).expect(200);
    const client = new AdminClient(t, await login(t, author.username, 'another-secret-password-2'));
    author.client = client;
    const project = await author.client.createProject();
    const rotated = await author.client.post(`/admin/v1/projects/${project.id}/secrets/api_secret/rotate`).expect(200);
    await author.client.post(`/admin/v1/projects/${project.id}/signing-keys/rotate`, {}).expect(200);
    await author.client
      .post(`/admin/v1/projects/${project.id}/variables`, { name: 'db_url', value: 'postgres://x:hunter2@db', public: false })
      .expect(201);
    await author.client.post(`/admin/v1/projects/${project.id}/sites`, {
      domain: 'example.com',
      licence: 'site-licence-secret-1',
    });
    const enrol = await author.client.post('/admin/v1/auth/2fa/enrol').expect(201);
    await author.client.post('/admin/v1/auth/2fa/confirm', { code: '000000' }).expect(403);
    await t
      .http()
      .post('/admin/v1/auth/login')
      .send({ username: author.username, password: 'another-secret-password-2' })
      .expect(200);

    const rows = JSON.stringify(await trail(admin, { page_size: '100' }));
    for (const secret of [
      'very-secret-password-1',
      'another-secret-password-2',
      project.api_secret,
      project.legacy_secret,
      project.transport_key,
      rotated.body.value,
      enrol.body.secret,
      'site-licence-secret-1',
      'hunter2',
      ADMIN_PASSWORD,
    ]) {
      expect(rows).not.toContain(secret);
    }
    expect(rows).toContain('[redacted]');
    const passwordChange = (await trail(admin, { action: 'authors.update', resource_id: author.id }))[0];
    expect(passwordChange.changes?.after).toEqual({ password: '[redacted]' });
    // The refused confirmation is recorded as such.
    const refused = await trail(admin, { outcome: 'refused', actor: author.username });
    expect(refused[0]).toMatchObject({ action: 'auth.2fa.confirm', result_code: 11008 });
  });

  it('records a role refusal, and the table refuses UPDATE and DELETE', async () => {
    const author = await admin.createAuthor();
    await author.client.put('/admin/v1/platform/settings', { legacy_metering_enabled: false }).expect(403);
    const [refused] = await trail(admin, { outcome: 'refused', actor: author.username });
    expect(refused).toMatchObject({ action: 'platform.settings.update', result_code: 11002 });

    const db = t.app.get(DataSource);
    await expect(db.query(`UPDATE admin_audit SET action = 'nothing'`)).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM admin_audit`)).rejects.toThrow(/append-only/);
    await expect(db.query(`TRUNCATE admin_audit`)).rejects.toThrow(/append-only/);
    expect((await trail(admin, { action: 'nothing' })).length).toBe(0);
    await admin.delete('/admin/v1/audit').expect(405); // no route changes or removes a row
  });
});
