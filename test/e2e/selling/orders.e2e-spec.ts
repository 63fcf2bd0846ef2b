import { DataSource } from 'typeorm';
import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { balanceOf, createAgent, createType, credit, expectLedgerConsistent, ledgerOf, TestAgent } from '../../support/agents';
import { sdkLogin } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

const { INSUFFICIENT_BALANCE, ORDER_CONFLICT, ORDER_NOT_FOUND, PROJECT_NOT_FOUND, CARD_TYPE_NOT_FOUND, SYSTEM_ERROR } = ErrorCode;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe('orders, commission and refunds (decisions §19, e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  let type: { id: number };

  const orders = (p: { id: string } = project) => `/admin/v1/projects/${p.id}/orders`;
  const order = (agent: TestAgent | AdminClient, body: object, p: { id: string } = project) =>
    ('client' in agent ? agent.client : agent).post(orders(p), { card_type_id: type.id, count: 1, ...body });
  const db = () => t.app.get(DataSource);
  /** An order's internal id (the one its ledger entries and cards name), by its order_id. */
  const orderIdOf = async (reference: string): Promise<string> =>
    (await db().query(`SELECT id FROM orders WHERE order_id = $1`, [reference]))[0].id;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    type = await createType(author, project.id, { price_cents: 1000 });
  });
  afterAll(() => t.close());

  it('creates exactly 10 of 50 concurrent orders against a balance for 10, with 10 × count cards and balance 0', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id] });
    await credit(author, agent.id, 10 * 2 * 1000);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => order(agent, { order_id: `race-${i}`, count: 2 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    for (const refused of results.filter((r) => r.status !== 201)) expectAdminError(refused, 402, INSUFFICIENT_BALANCE);
    expect(await balanceOf(t, agent.id)).toBe(0);
    const [{ orders: made, cards }] = await db().query(
      `SELECT (SELECT count(*) FROM orders WHERE agent_id = $1)::int AS orders, (SELECT count(*) FROM cards WHERE agent_id = $1)::int AS cards`,
      [agent.id],
    );
    expect({ made, cards }).toEqual({ made: 10, cards: 20 });
    const entries = await ledgerOf(t, agent.id);
    expect(entries.reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);
    expect(entries.filter((e) => e.kind === 'debit')).toHaveLength(10);
    await expectLedgerConsistent(admin);
  });

  it('answers a replay with the same order and cards (200), another body with ORDER_CONFLICT, and one order for 20 racing twins', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 10 });
    await credit(author, agent.id, 100_000);
    const first = await order(agent, { order_id: 'shop-1', count: 3 }).expect(201);
    expect(first.body).toEqual(
      expect.objectContaining({
        order_id: 'shop-1',
        count: 3,
        agent_id: agent.id,
        unit_price_cents: 900,
        total_cents: 2700,
        refunded_count: 0,
      }),
    );
    expect(first.body.items).toHaveLength(3);
    const again = await order(agent, { order_id: 'shop-1', count: 3 }).expect(200);
    expect(again.body.items.map((c: { code: string }) => c.code)).toEqual(first.body.items.map((c: { code: string }) => c.code));
    expectAdminError(await order(agent, { order_id: 'shop-1', count: 4 }), 409, ORDER_CONFLICT);
    expectAdminError(await order(author, { order_id: 'shop-1', count: 3 }), 409, ORDER_CONFLICT);
    expect(await balanceOf(t, agent.id)).toBe(100_000 - 2700);

    const twins = await Promise.all(Array.from({ length: 20 }, () => order(agent, { order_id: 'twin', count: 2 })));
    expect(twins.filter((r) => r.status === 201)).toHaveLength(1);
    expect(twins.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    const codes = new Set(twins.flatMap((r) => r.body.items.map((c: { code: string }) => c.code)));
    expect(codes.size).toBe(2);
    expect(await balanceOf(t, agent.id)).toBe(100_000 - 2700 - 1800);
    expect((await agent.client.get(`${orders()}/twin`).expect(200)).body.items).toHaveLength(2);
    expect((await agent.client.get(orders()).expect(200)).body.total).toBe(2);
    await expectLedgerConsistent(admin);
  });

  it('refuses nothing-to-pay-for: a foreign project, a type agents may not sell, too small a balance; nothing is created', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id] });
    const elsewhere = await author.createProject();
    expectAdminError(await order(agent, { order_id: 'x-1' }, elsewhere), 404, PROJECT_NOT_FOUND);
    const hidden = await createType(author, project.id, { agent_allowed: false });
    expectAdminError(await order(agent, { order_id: 'x-2', card_type_id: hidden.id }), 404, CARD_TYPE_NOT_FOUND);
    await credit(author, agent.id, 999);
    expectAdminError(await order(agent, { order_id: 'x-3' }), 402, INSUFFICIENT_BALANCE);
    expectAdminError(await agent.client.get(`${orders()}/x-3`), 404, ORDER_NOT_FOUND);
    expect(await balanceOf(t, agent.id)).toBe(999);
    expect((await agent.client.get('/admin/v1/agents/me/cards').expect(200)).body.total).toBe(0);
    // The author orders for free, any type of its project.
    const free = await order(author, { order_id: 'author-1', card_type_id: hidden.id, count: 2 }).expect(201);
    expect(free.body).toEqual(expect.objectContaining({ agent_id: null, total_cents: 0 }));
  });

  it('pays the parent its commission, and a refund credits back the price and claws the commission back', async () => {
    const parent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 30, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [project.id], discount_percent: 10 });
    await credit(author, child.id, 10_000);
    const made = (await order(child, { order_id: 'comm-1', count: 3 }).expect(201)).body;
    expect(await balanceOf(t, child.id)).toBe(10_000 - 3 * 900);
    expect(await balanceOf(t, parent.id)).toBe(3 * 200);
    expect((await ledgerOf(t, parent.id)).map((e) => [e.kind, e.amount_cents])).toEqual([['commission', 600]]);

    const refund = await author.post(`${orders()}/comm-1/refund`, { card_ids: [made.items[0].id] }).expect(200);
    expect(refund.body).toEqual({ card_ids: [made.items[0].id], refunded_cents: 900, clawback_cents: 200 });
    expect(await balanceOf(t, child.id)).toBe(10_000 - 2 * 900);
    expect(await balanceOf(t, parent.id)).toBe(400);

    // Deleting an unused card refunds it too; deleting a used one does not.
    const used = made.items[1];
    await sdkLogin(t, project.api_secret, { app: project.program_id, card_key: used.code, machine_id: 'dev-1' }).expect(200);
    await author.delete(`/admin/v1/projects/${project.id}/cards/${used.id}`).expect(204);
    expect(await balanceOf(t, child.id)).toBe(10_000 - 2 * 900);
    await author.post(`/admin/v1/projects/${project.id}/cards/bulk`, { action: 'delete', ids: [made.items[2].id] }).expect(200);
    expect(await balanceOf(t, child.id)).toBe(10_000 - 900);
    expect(await balanceOf(t, parent.id)).toBe(200);
    expect((await ledgerOf(t, child.id)).map((e) => [e.kind, e.amount_cents])).toEqual([
      ['credit', 10_000],
      ['debit', -2700],
      ['refund', 900],
      ['refund', 900],
    ]);
    expect((await ledgerOf(t, parent.id)).map((e) => [e.kind, e.amount_cents])).toEqual([
      ['commission', 600],
      ['clawback', -200],
      ['clawback', -200],
    ]);
    expect((await author.get(`${orders()}/comm-1`).expect(200)).body.refunded_count).toBe(2);
    await expectLedgerConsistent(admin);
  });

  it("deleting a project refunds its agents' unused order cards and claws back the commission, and keeps the orders", async () => {
    const doomed = await author.createProject();
    const ty = await createType(author, doomed.id, { price_cents: 1000 });
    const parent = await createAgent(t, author, { project_ids: [doomed.id], discount_percent: 30, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [doomed.id], discount_percent: 10 });
    await credit(author, child.id, 10_000);
    const made = (await order(child, { order_id: 'gone-1', count: 3, card_type_id: ty.id }, doomed).expect(201)).body;
    const orderId = await orderIdOf('gone-1');
    const used = made.items[0];
    await sdkLogin(t, doomed.api_secret, { app: doomed.program_id, card_key: used.code, machine_id: 'dev-1' }).expect(200);
    expect([await balanceOf(t, child.id), await balanceOf(t, parent.id)]).toEqual([10_000 - 2700, 600]);

    await author.delete(`/admin/v1/projects/${doomed.id}`).expect(204);
    // The two unused cards are refunded (900 each) and their commission (200 each) taken back; the used one is not.
    expect([await balanceOf(t, child.id), await balanceOf(t, parent.id)]).toEqual([10_000 - 900, 200]);
    expect((await ledgerOf(t, child.id)).map((e) => [e.kind, e.amount_cents])).toEqual([
      ['credit', 10_000],
      ['debit', -2700],
      ['refund', 1800],
    ]);
    expect((await ledgerOf(t, parent.id)).map((e) => [e.kind, e.amount_cents])).toEqual([
      ['commission', 600],
      ['clawback', -400],
    ]);
    const [kept] = await db().query(`SELECT project_id, card_type_id, refunded_count FROM orders WHERE id = $1`, [orderId]);
    expect(kept).toEqual({ project_id: null, card_type_id: null, refunded_count: 2 });
    const [{ cards }] = await db().query(`SELECT count(*)::int AS cards FROM cards WHERE order_id = $1`, [orderId]);
    expect(cards).toBe(0);
    await expectLedgerConsistent(admin);
  });

  it("refuses to delete a project whose refund's clawback the parent can no longer cover, and changes nothing", async () => {
    const kept = await author.createProject();
    const ty = await createType(author, kept.id, { price_cents: 1000 });
    const parent = await createAgent(t, author, { project_ids: [kept.id], discount_percent: 30, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [kept.id], discount_percent: 10 });
    await credit(author, child.id, 10_000);
    await order(child, { order_id: 'kept-1', count: 2, card_type_id: ty.id }, kept).expect(201);
    await credit(author, parent.id, -400); // the parent's commission is spent
    expectAdminError(await author.delete(`/admin/v1/projects/${kept.id}`), 402, INSUFFICIENT_BALANCE);
    await author.get(`/admin/v1/projects/${kept.id}`).expect(200);
    expect([await balanceOf(t, child.id), await balanceOf(t, parent.id)]).toEqual([10_000 - 1800, 0]);
    const [{ cards }] = await db().query(`SELECT count(*)::int AS cards FROM cards WHERE order_id = $1`, [
      await orderIdOf('kept-1'),
    ]);
    expect(cards).toBe(2);
    expect((await author.get(`${orders(kept)}/kept-1`).expect(200)).body.refunded_count).toBe(0);
    await expectLedgerConsistent(admin);
  });

  it('settles every order exactly once when a project is deleted while its agent orders', async () => {
    const racing = await author.createProject();
    const ty = await createType(author, racing.id, { price_cents: 1000 });
    const agent = await createAgent(t, author, { project_ids: [racing.id] });
    await credit(author, agent.id, 40 * 1000);
    const orders = Array.from({ length: 40 }, (_, i) => order(agent, { order_id: `race-del-${i}`, card_type_id: ty.id }, racing));
    const deletion = new Promise((r) => setTimeout(r, 30)).then(() => author.delete(`/admin/v1/projects/${racing.id}`));
    const results = await Promise.all(orders);
    expect((await deletion).status).toBe(204);
    expect(results.some((r) => r.status === 201)).toBe(true); // the race met orders in flight
    for (const refused of results.filter((r) => r.status !== 201)) expectAdminError(refused, 404, PROJECT_NOT_FOUND);
    // Every card bought was unused when the project went: all of it came back.
    expect(await balanceOf(t, agent.id)).toBe(40 * 1000);
    const [{ left }] = await db().query(`SELECT count(*)::int AS left FROM cards WHERE agent_id = $1`, [agent.id]);
    expect(left).toBe(0);
    await expectLedgerConsistent(admin);
  });

  it('the ledger check names an entry whose order does not exist, and an order its entries disagree with', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id] });
    await credit(author, agent.id, 5000);
    await order(agent, { order_id: 'checked-1', count: 2 }).expect(201);
    const made = { id: await orderIdOf('checked-1') };
    const stray = '00000000-0000-4000-8000-00000000beef';
    // A debit with no order, as deleting a project used to leave: the balance agrees, the order check does not.
    await db().query(`UPDATE agents SET balance_cents = balance_cents - 500 WHERE id = $1`, [agent.id]);
    await db().query(
      `INSERT INTO agent_ledger (agent_id, kind, amount_cents, balance_after_cents, order_id) VALUES ($1, 'debit', -500, 2500, $2)`,
      [agent.id, stray],
    );
    await db().query(`UPDATE orders SET refunded_count = 1 WHERE id = $1`, [made.id]); // a refund without its entry
    try {
      const check = (await admin.get('/admin/v1/platform/ledger-check').expect(200)).body;
      expect(check).toMatchObject({ severity: 'fail', mismatches: [] });
      expect(check.order_mismatches).toEqual(
        expect.arrayContaining([
          { order_id: stray, reference: null, kind: 'debit', agent_id: agent.id, expected_cents: null, ledger_cents: 500 },
          {
            order_id: made.id,
            reference: 'checked-1',
            kind: 'refund',
            agent_id: agent.id,
            expected_cents: 1000,
            ledger_cents: 0,
          },
        ]),
      );
      expect(check.order_mismatches).toHaveLength(2);
    } finally {
      await db().query(`DELETE FROM agent_ledger WHERE order_id = $1`, [stray]);
      await db().query(`UPDATE agents SET balance_cents = balance_cents + 500 WHERE id = $1`, [agent.id]);
      await db().query(`UPDATE orders SET refunded_count = 0 WHERE id = $1`, [made.id]);
    }
    await expectLedgerConsistent(admin);
  });

  it("stays exact with a sub-agent's orders, its parent's credits to it and refunds all racing", async () => {
    const parent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 30, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [project.id], discount_percent: 10 });
    await credit(author, parent.id, 20_000);
    await credit(author, child.id, 9_000);
    const seed = (await order(child, { order_id: 'mixed-seed', count: 5 }).expect(201)).body;
    const results = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => order(child, { order_id: `mixed-${i}` })),
      ...Array.from({ length: 8 }, () => parent.client.post(`/admin/v1/agents/${child.id}/credits`, { amount_cents: 500 })),
      ...seed.items.map((card: { id: number }) => author.post(`${orders()}/mixed-seed/refund`, { card_ids: [card.id] })),
    ]);
    expect(
      results.filter((r) => ![200, 201, 402].includes(r.status)).map((r) => `${r.status} ${JSON.stringify(r.body)}`),
    ).toEqual([]);
    const ordered = results.slice(0, 12).filter((r) => r.status === 201).length;
    const credited = results.slice(12, 20).filter((r) => r.status === 200).length;
    expect(await balanceOf(t, child.id)).toBe(9_000 - 5 * 900 + 5 * 900 + credited * 500 - ordered * 900);
    expect(await balanceOf(t, parent.id)).toBe(20_000 + 5 * 200 - 5 * 200 + ordered * 200 - credited * 500);
    await expectLedgerConsistent(admin);
  });

  it('credits a refund exactly once under 20 concurrent refunds of one card', async () => {
    const parent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 20, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [project.id], discount_percent: 5 });
    await credit(author, child.id, 5000);
    const made = (await order(child, { order_id: 'refund-race', count: 2 }).expect(201)).body;
    const cardId = made.items[0].id;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? author.post(`${orders()}/refund-race/refund`, { card_ids: [cardId] })
          : author.delete(`/admin/v1/projects/${project.id}/cards/${cardId}`),
      ),
    );
    const refunded = results.filter((r) => (r.status === 200 && r.body.card_ids.length === 1) || r.status === 204);
    expect(refunded).toHaveLength(1);
    expect(await balanceOf(t, child.id)).toBe(5000 - 950);
    expect(await balanceOf(t, parent.id)).toBe(150);
    expect((await ledgerOf(t, child.id)).filter((e) => e.kind === 'refund')).toHaveLength(1);
    expect((await ledgerOf(t, parent.id)).filter((e) => e.kind === 'clawback')).toHaveLength(1);
    await expectLedgerConsistent(admin);
  });

  it('leaves balance, ledger, order and cards unchanged when the transaction fails after the debit', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id] });
    await credit(author, agent.id, 50_000);
    // A fault in the card batch insert, which runs after the debit in the order's transaction.
    await db().query(
      `CREATE FUNCTION fail_seven() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.count = 7 THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$`,
    );
    await db().query(`CREATE TRIGGER fail_seven BEFORE INSERT ON card_batches FOR EACH ROW EXECUTE FUNCTION fail_seven()`);
    try {
      const before = await ledgerOf(t, agent.id);
      const res = await order(agent, { order_id: 'faulted', count: 7 });
      expectAdminError(res, 500, SYSTEM_ERROR);
      expect(await balanceOf(t, agent.id)).toBe(50_000);
      expect(await ledgerOf(t, agent.id)).toEqual(before);
      expectAdminError(await agent.client.get(`${orders()}/faulted`), 404, ORDER_NOT_FOUND);
    } finally {
      await db().query(`DROP TRIGGER fail_seven ON card_batches`);
      await db().query(`DROP FUNCTION fail_seven()`);
    }
    await order(agent, { order_id: 'faulted', count: 7 }).expect(201);
    expect(await balanceOf(t, agent.id)).toBe(50_000 - 7000);
    await expectLedgerConsistent(admin);
  });

  it('records order.created for every order and agent.balance_low once, when an order takes the balance below its mark', async () => {
    const p = await author.createProject();
    const ty = await createType(author, p.id, { price_cents: 1000 });
    await admin.put('/admin/v1/platform/settings', { webhook_private_targets: true }).expect(200);
    await author
      .post(`/admin/v1/projects/${p.id}/webhooks`, {
        url: 'http://127.0.0.1:9/hook',
        events: ['order.created', 'agent.balance_low'],
      })
      .expect(201);
    const agent = await createAgent(t, author, { project_ids: [p.id], low_balance_cents: 1500 });
    await credit(author, agent.id, 2000);
    const first = (await agent.client.post(orders(p), { order_id: 'ev-1', card_type_id: ty.id, count: 1 }).expect(201)).body;
    await agent.client.post(orders(p), { order_id: 'ev-2', card_type_id: ty.id, count: 1 }).expect(201);
    await agent.client.post(orders(p), { order_id: 'ev-1', card_type_id: ty.id, count: 1 }).expect(200); // a replay tells nothing
    const events = (await db().query(
      `SELECT type, data FROM webhook_events WHERE project_id = $1 ORDER BY created_at, type DESC`,
      [p.id],
    )) as Array<{ type: string; data: unknown }>;
    expect(events.map((e) => e.type)).toEqual(['order.created', 'agent.balance_low', 'order.created']);
    expect(events[0].data).toEqual({
      order_id: 'ev-1',
      card_type_id: String(ty.id),
      count: 1,
      agent_id: agent.id,
      card_ids: [first.items[0].id],
    });
    expect(events[1].data).toEqual({ agent_id: agent.id, balance_cents: 1000 });
  });

  it('counts sales, activations and revenue per agent, type and day, on the project stats and per agent', async () => {
    const p = await author.createProject();
    const ty = await createType(author, p.id, { price_cents: 500 });
    const agent = await createAgent(t, author, { project_ids: [p.id], discount_percent: 20 });
    await credit(author, agent.id, 10_000);
    const made = (await agent.client.post(orders(p), { order_id: 's-1', card_type_id: ty.id, count: 4 }).expect(201)).body;
    await author.post(orders(p), { order_id: 's-2', card_type_id: ty.id, count: 2 }).expect(201);
    await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: made.items[0].code, machine_id: 'm1' }).expect(200);
    await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: made.items[0].code, machine_id: 'm1' }).expect(200); // not a first activation
    await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: made.items[1].code, machine_id: 'm2' }).expect(200);
    await author.post(`${orders(p)}/s-1/refund`, { card_ids: [made.items[3].id] }).expect(200);
    const stats = (await author.get(`/admin/v1/projects/${p.id}/stats`).expect(200)).body;
    const strip = (items: Array<Record<string, unknown>>) => items.map(({ day: _day, ...rest }) => rest);
    expect(strip(stats.sales)).toEqual(
      expect.arrayContaining([
        { project_id: p.id, agent_id: agent.id, card_type_id: ty.id, sold: 3, activated: 2, revenue_cents: 1200 },
        { project_id: p.id, agent_id: null, card_type_id: ty.id, sold: 2, activated: 0, revenue_cents: 0 },
      ]),
    );
    expect(stats.sales).toHaveLength(2);
    const mine = (await agent.client.get(`/admin/v1/agents/${agent.id}/sales`).expect(200)).body;
    expect(strip(mine.items)).toEqual([
      { project_id: p.id, agent_id: agent.id, card_type_id: ty.id, sold: 3, activated: 2, revenue_cents: 1200 },
    ]);
  });
});

/** Two instances sharing PostgreSQL and Redis (needs DATABASE_URL and REDIS_URL, like connect-multi-instance). */
(process.env.DATABASE_URL && process.env.REDIS_URL ? describe : describe.skip)('orders across two instances (e2e)', () => {
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    one = await startTestApp();
    two = await startTestApp({}, { shareWith: one });
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  it('creates one order for the same order_id raced on both instances, and exactly the orders the balance pays for', async () => {
    const admin = await AdminClient.asPlatformAdmin(one);
    const author = (await admin.createAuthor()).client;
    const p = await author.createProject();
    const ty = await createType(author, p.id, { price_cents: 1000 });
    const agent = await createAgent(one, author, { project_ids: [p.id] });
    await credit(author, agent.id, 5000);
    const onTwo = new AdminClient(two, agent.client.token);
    const via = (i: number) => (i % 2 ? onTwo : agent.client);
    const twins = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        via(i).post(`/admin/v1/projects/${p.id}/orders`, { order_id: 'same', card_type_id: ty.id, count: 1 }),
      ),
    );
    expect(twins.filter((r) => r.status === 201)).toHaveLength(1);
    expect(twins.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        via(i).post(`/admin/v1/projects/${p.id}/orders`, { order_id: `many-${i}`, card_type_id: ty.id, count: 1 }),
      ),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(4);
    expect(await balanceOf(one, agent.id)).toBe(0);
    const [{ n }] = await one.app.get(DataSource).query(`SELECT count(*)::int AS n FROM cards WHERE agent_id = $1`, [agent.id]);
    expect(n).toBe(5);
    await expectLedgerConsistent(admin);
  });
});
