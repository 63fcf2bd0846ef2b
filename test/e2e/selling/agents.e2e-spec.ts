import { Secret, TOTP } from 'otpauth';
import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError, FORBIDDEN, UNAUTHENTICATED } from '../../support/admin-errors';
import { balanceOf, createAgent, createType, credit, expectLedgerConsistent, ledgerOf } from '../../support/agents';
import { startTestApp, TestApp } from '../../support/test-app';

const { AGENT_LEVELS_EXCEEDED, AGENT_SCOPE_EXCEEDED, AGENT_NOT_FOUND, INSUFFICIENT_BALANCE, AUTHOR_USERNAME_TAKEN } = ErrorCode;

describe('agents and their ledger (decisions §19, e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let other: AdminClient;
  let project: { id: string };
  let second: { id: string };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    other = (await admin.createAuthor()).client;
    project = await author.createProject();
    second = await author.createProject();
  });
  afterAll(() => t.close());

  it("creates an agent for the author's projects; the agent signs in with role agent and reads itself", async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 10, can_ban: true });
    expect(agent.body).toEqual({
      id: agent.id,
      username: agent.username,
      status: 'active',
      owner_id: expect.any(String),
      parent_agent_id: null,
      level: 1,
      project_ids: [project.id],
      discount_percent: 10,
      can_create_sub_agents: false,
      can_ban: true,
      can_unbind: false,
      balance_cents: 0,
      low_balance_cents: null,
      created_at: expect.any(String),
    });
    const signIn = await t
      .http()
      .post('/admin/v1/auth/login')
      .send({ username: agent.username, password: agent.password })
      .expect(200);
    expect(signIn.body.role).toBe('agent');
    expect((await agent.client.get('/admin/v1/auth/me').expect(200)).body.role).toBe('agent');
    expect((await agent.client.get('/admin/v1/agents/me').expect(200)).body).toEqual(agent.body);
    expect((await author.get(`/admin/v1/agents/${agent.id}`).expect(200)).body).toEqual(agent.body);
    expectAdminError(await other.get(`/admin/v1/agents/${agent.id}`), 404, AGENT_NOT_FOUND);
    expectAdminError(
      await author.post('/admin/v1/agents', {
        username: agent.username.toUpperCase(),
        password: 'another-pass',
        project_ids: [project.id],
        discount_percent: 0,
      }),
      409,
      AUTHOR_USERNAME_TAKEN,
      'username',
    );
  });

  it("refuses another author's project, and a sub-agent beyond its parent's projects, discount or rights", async () => {
    const foreign = await other.createProject();
    expectAdminError(
      await author.post('/admin/v1/agents', {
        username: 'agent-x1',
        password: 'agent-password',
        project_ids: [foreign.id],
        discount_percent: 0,
      }),
      400,
      AGENT_SCOPE_EXCEEDED,
      'project_ids',
    );
    const parent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 20, can_create_sub_agents: true });
    const sub = (body: object) =>
      parent.client.post('/admin/v1/agents', {
        username: `sub-${Date.now()}`,
        password: 'agent-password',
        project_ids: [project.id],
        discount_percent: 10,
        ...body,
      });
    expectAdminError(await sub({ project_ids: [second.id] }), 400, AGENT_SCOPE_EXCEEDED, 'project_ids');
    expectAdminError(await sub({ discount_percent: 25 }), 400, AGENT_SCOPE_EXCEEDED, 'discount_percent');
    expectAdminError(await sub({ can_ban: true }), 400, AGENT_SCOPE_EXCEEDED, 'can_ban');
    const noRight = await createAgent(t, author, { project_ids: [project.id] });
    expectAdminError(
      await noRight.client.post('/admin/v1/agents', {
        username: 'sub-none',
        password: 'agent-password',
        project_ids: [project.id],
        discount_percent: 0,
      }),
      403,
      FORBIDDEN,
    );
    expectAdminError(
      await admin.post('/admin/v1/agents', {
        username: 'sub-admin',
        password: 'agent-password',
        project_ids: [project.id],
        discount_percent: 0,
      }),
      403,
      FORBIDDEN,
    );
  });

  it('goes three levels deep at most', async () => {
    const one = await createAgent(t, author, { project_ids: [project.id], discount_percent: 30, can_create_sub_agents: true });
    const two = await createAgent(t, one.client, {
      project_ids: [project.id],
      discount_percent: 20,
      can_create_sub_agents: true,
    });
    const three = await createAgent(t, author, { parent_agent_id: two.id, project_ids: [project.id], discount_percent: 10 });
    expect([one.body.level, two.body.level, three.body.level]).toEqual([1, 2, 3]);
    expectAdminError(
      await author.post('/admin/v1/agents', {
        username: 'level-four',
        password: 'agent-password',
        parent_agent_id: three.id,
        project_ids: [project.id],
        discount_percent: 0,
      }),
      400,
      AGENT_LEVELS_EXCEEDED,
    );
    // The first level sees its whole tree, the second only its own sub-agent, the third nobody.
    expect((await one.client.get('/admin/v1/agents').expect(200)).body.items.map((a: { id: string }) => a.id).sort()).toEqual(
      [two.id, three.id].sort(),
    );
    expect((await two.client.get('/admin/v1/agents').expect(200)).body.items.map((a: { id: string }) => a.id)).toEqual([
      three.id,
    ]);
    expect((await three.client.get('/admin/v1/agents').expect(200)).body.total).toBe(0);
    expectAdminError(await three.client.get(`/admin/v1/agents/${one.id}`), 404, AGENT_NOT_FOUND);
    expect((await one.client.get(`/admin/v1/agents/${three.id}/ledger`).expect(200)).body.total).toBe(0);
  });

  it("credits and debits by the author; a parent's credit is paid by the parent; nobody goes below zero", async () => {
    const parent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 20, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [project.id], discount_percent: 10 });
    expect((await credit(author, parent.id, 5000)).balance_cents).toBe(5000);
    expect((await credit(parent.client, child.id, 1200, 'from my stock')).balance_cents).toBe(1200);
    expect(await balanceOf(t, parent.id)).toBe(3800);
    expectAdminError(
      await parent.client.post(`/admin/v1/agents/${child.id}/credits`, { amount_cents: 3801 }),
      402,
      INSUFFICIENT_BALANCE,
    );
    expectAdminError(await child.client.post(`/admin/v1/agents/${parent.id}/credits`, { amount_cents: 1 }), 404, AGENT_NOT_FOUND);
    expectAdminError(await child.client.post(`/admin/v1/agents/${child.id}/credits`, { amount_cents: 1 }), 403, FORBIDDEN);
    expectAdminError(await parent.client.post(`/admin/v1/agents/${child.id}/credits`, { amount_cents: -1 }), 403, FORBIDDEN);
    await credit(author, child.id, -200, 'correction');
    expectAdminError(
      await author.post(`/admin/v1/agents/${child.id}/credits`, { amount_cents: -1001 }),
      402,
      INSUFFICIENT_BALANCE,
    );
    expect(await balanceOf(t, child.id)).toBe(1000);
    expect(await ledgerOf(t, parent.id)).toEqual([
      { kind: 'credit', amount_cents: 5000, balance_after_cents: 5000 },
      { kind: 'debit', amount_cents: -1200, balance_after_cents: 3800 },
    ]);
    const ledger = (await child.client.get(`/admin/v1/agents/${child.id}/ledger`).expect(200)).body;
    expect(ledger.items).toEqual([
      expect.objectContaining({
        kind: 'debit',
        amount_cents: -200,
        balance_after_cents: 1000,
        note: 'correction',
        order_id: null,
      }),
      expect.objectContaining({
        kind: 'credit',
        amount_cents: 1200,
        balance_after_cents: 1200,
        note: 'from my stock',
        actor_id: parent.id,
      }),
    ]);
    await expectLedgerConsistent(admin);
  });

  it('applies 30 concurrent credits and debits exactly, the balance never below zero', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id] });
    await credit(author, agent.id, 1000);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        author.post(`/admin/v1/agents/${agent.id}/credits`, { amount_cents: i % 2 ? 100 : -150 }),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    const entries = await ledgerOf(t, agent.id);
    expect(entries).toHaveLength(1 + ok);
    expect(await balanceOf(t, agent.id)).toBe(entries.reduce((sum, e) => sum + e.amount_cents, 0));
    expect(entries.every((e) => e.balance_after_cents >= 0)).toBe(true);
    await expectLedgerConsistent(admin);
  });

  it('disabling an agent ends its sessions and its sign-in', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id] });
    expect(
      (await author.patch(`/admin/v1/agents/${agent.id}`, { status: 'disabled', discount_percent: 5 }).expect(200)).body,
    ).toEqual(expect.objectContaining({ status: 'disabled', discount_percent: 5 }));
    expectAdminError(await agent.client.get('/admin/v1/agents/me'), 401, UNAUTHENTICATED);
    expectAdminError(
      await t.http().post('/admin/v1/auth/login').send({ username: agent.username, password: agent.password }),
      403,
      ErrorCode.ACCOUNT_DISABLED,
    );
    expectAdminError(await agent.client.patch(`/admin/v1/agents/${agent.id}`, {}), 401, UNAUTHENTICATED);
  });

  it("stops an agent's whole tree, token, sign-in and API key, while its author or a parent is disabled, and restores it after", async () => {
    const owner = await admin.createAuthor();
    const p = await owner.client.createProject();
    const type = await createType(owner.client, p.id, { price_cents: 1000 });
    const parent = await createAgent(t, owner.client, { project_ids: [p.id], discount_percent: 30, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [p.id], discount_percent: 10 });
    await credit(owner.client, child.id, 10_000);
    const key = (await child.client.post('/admin/v1/api-keys', { name: 'shop', scopes: ['orders:create'] }).expect(201)).body.key;
    let n = 0;
    const orderWithKey = () =>
      t
        .http()
        .post(`/admin/v1/projects/${p.id}/orders`)
        .set('Authorization', `Bearer ${key}`)
        .send({ order_id: `tree-${n++}`, card_type_id: type.id, count: 1 });
    const signIn = (agent: { username: string; password: string }) =>
      t.http().post('/admin/v1/auth/login').send({ username: agent.username, password: agent.password });
    const expectStopped = async (agent: typeof child, withKey: boolean) => {
      expectAdminError(await agent.client.get('/admin/v1/agents/me'), 401, UNAUTHENTICATED);
      expectAdminError(await signIn(agent), 403, ErrorCode.ACCOUNT_DISABLED);
      if (withKey) expectAdminError(await orderWithKey(), 401, UNAUTHENTICATED);
    };

    await owner.client.patch(`/admin/v1/agents/${parent.id}`, { status: 'disabled' }).expect(200);
    await expectStopped(child, true);
    await owner.client.patch(`/admin/v1/agents/${parent.id}`, { status: 'active' }).expect(200);
    await child.client.get('/admin/v1/agents/me').expect(200);
    expect((await orderWithKey()).status).toBe(201);
    expect(await balanceOf(t, parent.id)).toBe(200); // its commission, while active

    await admin.patch(`/admin/v1/authors/${owner.id}`, { status: 'disabled' }).expect(200);
    await expectStopped(child, true);
    const signedInAgain = await signIn(parent);
    expectAdminError(signedInAgain, 403, ErrorCode.ACCOUNT_DISABLED);
    await admin.patch(`/admin/v1/authors/${owner.id}`, { status: 'active' }).expect(200);
    expect((await orderWithKey()).status).toBe(201);
    expect(await balanceOf(t, child.id)).toBe(10_000 - 2 * 900);
    await expectLedgerConsistent(admin);
  });

  it('shows an agent the allowed types of its projects at its price, and only its own cards; ban needs can_ban, unbind can_unbind', async () => {
    const typeAllowed = await createType(author, project.id, { price_cents: 999 });
    await createType(author, project.id, { agent_allowed: false });
    await createType(author, second.id);
    const agent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 15, can_ban: true });
    const types = (await agent.client.get('/admin/v1/agents/me/card-types').expect(200)).body;
    expect(types.items.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([typeAllowed.id]));
    expect(types.items.every((x: { project_id: string }) => x.project_id === project.id)).toBe(true);
    expect(types.items.find((x: { id: number }) => x.id === typeAllowed.id)).toEqual(
      expect.objectContaining({ price_cents: 999, agent_price_cents: 849 }),
    );

    await credit(author, agent.id, 10_000);
    const order = (
      await agent.client
        .post(`/admin/v1/projects/${project.id}/orders`, { order_id: 'view-1', card_type_id: typeAllowed.id, count: 3 })
        .expect(201)
    ).body;
    await author.post(`/admin/v1/projects/${project.id}/cards`, { count: 2, duration_seconds: 60 }).expect(201); // the author's own cards
    const mine = (await agent.client.get('/admin/v1/agents/me/cards').expect(200)).body;
    expect(mine.total).toBe(3);
    expect(mine.items.map((c: { id: number }) => c.id).sort()).toEqual(order.items.map((c: { id: number }) => c.id).sort());
    expect(mine.items.every((c: { agent_id: string }) => c.agent_id === agent.id)).toBe(true);
    const searched = (await agent.client.get(`/admin/v1/agents/me/cards?q=${order.items[0].code}`).expect(200)).body;
    expect(searched.items.map((c: { id: number }) => c.id)).toEqual([order.items[0].id]);
    const csv = await agent.client.get('/admin/v1/agents/me/cards/export.csv').expect(200);
    expect(csv.text.trim().split('\r\n')).toHaveLength(4);

    const cardId = order.items[0].id;
    expect((await agent.client.patch(`/admin/v1/agents/me/cards/${cardId}`, { status: 'banned' }).expect(200)).body.status).toBe(
      'banned',
    );
    expectAdminError(await agent.client.delete(`/admin/v1/agents/me/cards/${cardId}/devices/dev-1`), 403, FORBIDDEN);
    const authorCard = (await author.get(`/admin/v1/projects/${project.id}/cards?page_size=100`).expect(200)).body.items.find(
      (c: { agent_id: string | null }) => c.agent_id === null,
    );
    expectAdminError(
      await agent.client.patch(`/admin/v1/agents/me/cards/${authorCard.id}`, { status: 'banned' }),
      404,
      ErrorCode.CARD_NOT_FOUND,
    );
    const noBan = await createAgent(t, author, { project_ids: [project.id] });
    expectAdminError(await noBan.client.patch(`/admin/v1/agents/me/cards/${cardId}`, { status: 'active' }), 403, FORBIDDEN);
  });

  it('asks an author with two-factor sign-in for a fresh code on a credit, and moves nothing without it', async () => {
    const { client } = await admin.createAuthor();
    const p = await client.createProject();
    const agent = await createAgent(t, client, { project_ids: [p.id] });
    const enrol = await client.post('/admin/v1/auth/2fa/enrol').expect(201);
    const code = (offset: number) =>
      new TOTP({ secret: Secret.fromBase32(enrol.body.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
        timestamp: Date.now() + offset * 30_000,
      });
    await client.post('/admin/v1/auth/2fa/confirm', { code: code(0) }).expect(200);
    expectAdminError(
      await client.post(`/admin/v1/agents/${agent.id}/credits`, { amount_cents: 500 }),
      403,
      ErrorCode.TWO_FACTOR_REQUIRED,
    );
    expect(await balanceOf(t, agent.id)).toBe(0);
    await client
      .post(`/admin/v1/agents/${agent.id}/credits`)
      .set('X-Svc-2fa-Code', code(1))
      .send({ amount_cents: 500 })
      .expect(200);
    expect(await balanceOf(t, agent.id)).toBe(500);
  });
});
