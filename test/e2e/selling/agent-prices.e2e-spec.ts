import { ErrorCode } from '../../../sdk/src';
import { AdminClient } from '../../support/admin-client';
import { BAD_REQUEST, expectAdminError, FORBIDDEN } from '../../support/admin-errors';
import { balanceOf, createAgent, createType, credit, expectLedgerConsistent, ledgerOf } from '../../support/agents';
import { startTestApp, TestApp } from '../../support/test-app';

const { AGENT_NOT_FOUND, AGENT_SCOPE_EXCEEDED, CARD_TYPE_NOT_FOUND } = ErrorCode;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

describe("an agent's own price per card type, instead of its discount (e2e)", () => {
  let t: TestApp;
  let admin: AdminClient;
  let author: AdminClient;
  let project: Project;
  let type: { id: number };

  const prices = (agentId: string) => `/admin/v1/agents/${agentId}/prices`;
  const order = (client: AdminClient, orderId: string, count = 1, typeId = type.id) =>
    client.post(`/admin/v1/projects/${project.id}/orders`, { order_id: orderId, card_type_id: typeId, count });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    project = await author.createProject();
    type = await createType(author, project.id, { price_cents: 1000 });
  });
  afterAll(() => t.close());

  it('debits the own price when set, shows it to the agent, and falls back to the discount once removed', async () => {
    const agent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 10 });
    await credit(author, agent.id, 10_000);
    const set = await author.put(`${prices(agent.id)}/${type.id}`, { price_cents: 750 }).expect(200);
    expect(set.body).toEqual(
      expect.objectContaining({
        card_type_id: type.id,
        price_cents: 1000,
        discount_price_cents: 900,
        own_price_cents: 750,
        agent_price_cents: 750,
      }),
    );
    const listed = (await author.get(prices(agent.id)).expect(200)).body;
    expect(listed.items.find((i: { card_type_id: number }) => i.card_type_id === type.id)).toEqual(set.body);
    const mine = (await agent.client.get('/admin/v1/agents/me/card-types').expect(200)).body.items;
    expect(mine.find((i: { id: number }) => i.id === type.id).agent_price_cents).toBe(750);
    // The agent reads its own prices too.
    expect((await agent.client.get(prices(agent.id)).expect(200)).body.items).toEqual(listed.items);

    const bought = (await order(agent.client, 'own-1', 2).expect(201)).body;
    expect(bought).toEqual(expect.objectContaining({ unit_price_cents: 750, total_cents: 1500 }));
    expect(await balanceOf(t, agent.id)).toBe(10_000 - 1500);

    await author.delete(`${prices(agent.id)}/${type.id}`).expect(204);
    await author.delete(`${prices(agent.id)}/${type.id}`).expect(204); // twice: nothing left to remove
    expect((await order(agent.client, 'own-2', 1).expect(201)).body.unit_price_cents).toBe(900);
    expect((await agent.client.get('/admin/v1/agents/me/card-types').expect(200)).body.items[0].agent_price_cents).toBe(900);
    expect((await ledgerOf(t, agent.id)).map((e) => [e.kind, e.amount_cents])).toEqual([
      ['credit', 10_000],
      ['debit', -1500],
      ['debit', -900],
    ]);
    await expectLedgerConsistent(admin);
  });

  it("pays the parent the difference of the two prices, each its own or its discount's, and refunds exactly that", async () => {
    const parent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 10, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [project.id], discount_percent: 5 });
    await credit(author, child.id, 10_000);
    // The parent's own price 600 (not its 900): the child's discounted 950 earns it 350 a card.
    await author.put(`${prices(parent.id)}/${type.id}`, { price_cents: 600 }).expect(200);
    const first = (await order(child.client, 'comm-own-1', 2).expect(201)).body;
    expect(first.unit_price_cents).toBe(950);
    expect(await balanceOf(t, parent.id)).toBe(700);
    // The parent sets its child's price, at least its own: 800 earns it 200 a card.
    expectAdminError(
      await parent.client.put(`${prices(child.id)}/${type.id}`, { price_cents: 599 }),
      400,
      AGENT_SCOPE_EXCEEDED,
      'price_cents',
    );
    await parent.client.put(`${prices(child.id)}/${type.id}`, { price_cents: 800 }).expect(200);
    expect((await order(child.client, 'comm-own-2', 3).expect(201)).body.unit_price_cents).toBe(800);
    expect(await balanceOf(t, child.id)).toBe(10_000 - 1900 - 2400);
    expect(await balanceOf(t, parent.id)).toBe(700 + 600);
    // A refund gives back what was paid and takes back what was earned, per card.
    const refund = await author.post(`/admin/v1/projects/${project.id}/orders/comm-own-1/refund`, {}).expect(200);
    expect(refund.body).toEqual(expect.objectContaining({ refunded_cents: 1900, clawback_cents: 700 }));
    expect((await ledgerOf(t, parent.id)).map((e) => [e.kind, e.amount_cents])).toEqual([
      ['commission', 700],
      ['commission', 600],
      ['clawback', -700],
    ]);
    await expectLedgerConsistent(admin);
  });

  it("refuses what is not the caller's to set, in the admin envelope, and changes nothing", async () => {
    const parent = await createAgent(t, author, { project_ids: [project.id], discount_percent: 10, can_create_sub_agents: true });
    const child = await createAgent(t, parent.client, { project_ids: [project.id], discount_percent: 10 });
    const put = (by: AdminClient, agentId: string, typeId: number | string, body: object) =>
      by.put(`${prices(agentId)}/${typeId}`, body);
    for (const body of [{}, { price_cents: -1 }, { price_cents: 1.5 }, { price_cents: '700' }, { price_cents: 2 ** 31 }])
      expectAdminError(await put(author, parent.id, type.id, body), 400, BAD_REQUEST, 'price_cents');
    expectAdminError(await put(author, parent.id, 'abc', { price_cents: 1 }), 404, CARD_TYPE_NOT_FOUND);
    expectAdminError(await put(author, parent.id, 2147483647, { price_cents: 1 }), 404, CARD_TYPE_NOT_FOUND);
    // A type agents may not sell, and a type of a project the agent does not sell for.
    const hidden = await createType(author, project.id, { agent_allowed: false });
    expectAdminError(await put(author, parent.id, hidden.id, { price_cents: 1 }), 404, CARD_TYPE_NOT_FOUND);
    const elsewhere = await author.createProject();
    const elsewhereType = await createType(author, elsewhere.id);
    expectAdminError(await put(author, parent.id, elsewhereType.id, { price_cents: 1 }), 404, CARD_TYPE_NOT_FOUND);
    // Never its own terms; the author may still set the child's, within the parent's price.
    expectAdminError(await put(parent.client, parent.id, type.id, { price_cents: 1 }), 403, FORBIDDEN);
    expectAdminError(await parent.client.delete(`${prices(parent.id)}/${type.id}`), 403, FORBIDDEN);
    expectAdminError(await put(child.client, child.id, type.id, { price_cents: 1 }), 403, FORBIDDEN);
    expectAdminError(await put(author, child.id, type.id, { price_cents: 899 }), 400, AGENT_SCOPE_EXCEEDED, 'price_cents');
    await put(author, child.id, type.id, { price_cents: 900 }).expect(200);
    // A child cannot see its parent's prices.
    expectAdminError(await child.client.get(prices(parent.id)), 404, AGENT_NOT_FOUND);

    // Another author: neither its agents nor, for its own agent, our types.
    const other = (await admin.createAuthor()).client;
    const theirProject = await other.createProject();
    const theirAgent = await createAgent(t, other, { project_ids: [theirProject.id] });
    expectAdminError(await put(other, parent.id, type.id, { price_cents: 1 }), 404, AGENT_NOT_FOUND);
    expectAdminError(await other.get(prices(parent.id)), 404, AGENT_NOT_FOUND);
    expectAdminError(await other.delete(`${prices(child.id)}/${type.id}`), 404, AGENT_NOT_FOUND);
    expectAdminError(await put(other, theirAgent.id, type.id, { price_cents: 1 }), 404, CARD_TYPE_NOT_FOUND);
    expectAdminError(await author.get(prices('not-a-uuid')), 404, AGENT_NOT_FOUND);

    const own = (await author.get(prices(parent.id)).expect(200)).body.items;
    expect(own.map((i: { own_price_cents: number | null }) => i.own_price_cents)).toEqual(own.map(() => null));
    expect((await author.get(prices(child.id)).expect(200)).body.items[0].own_price_cents).toBe(900);
  });
});
