import { AdminPrincipal } from '../../src/admin-kernel/admin-principal';
import { AgentsService } from '../../src/agents/agents.service';
import { PageQuery } from '../../src/common/paging';
import { ErrorCode } from '../../src/core/errors/error-code';
import { OrdersService } from '../../src/orders/orders.service';
import { ServiceContext, startServiceContext } from '../support/service-context';
import { createAgent, createAuthor, createCardType, createProject } from '../support/service-fixtures';

/**
 * The money rules of decisions §19 through their services, on the real database and without HTTP:
 * an agent's balance is its ledger's sum and never below zero, whoever moves it and however many at
 * once; an order debits exactly what it makes, pays the parent its commission, replays by its
 * order_id, and a refund gives back exactly what was paid. The admin API's codes and statuses for
 * the same refusals are the end-to-end tests' (test/e2e/selling/orders.e2e-spec.ts, test/e2e/selling/agents.e2e-spec.ts).
 */
describe('orders and the agents ledger, through their services', () => {
  let t: ServiceContext;
  let agents: AgentsService;
  let orders: OrdersService;
  let author: AdminPrincipal;
  let projectId: string;
  let typeId: number;
  const PRICE = 1000;

  beforeAll(async () => {
    t = await startServiceContext();
    agents = t.app.get(AgentsService);
    orders = t.app.get(OrdersService);
    author = await createAuthor(t.app);
    projectId = (await createProject(t.app, author)).id;
    typeId = (await createCardType(t.app, author, projectId, PRICE)).id;
  });
  afterAll(() => t?.close());

  const balance = async (agent: AdminPrincipal) => (await agents.get(author, agent.id)).balance_cents;
  const entries = async (agent: AdminPrincipal) =>
    (await agents.ledger(author, agent.id, Object.assign(new PageQuery(), { page_size: 100 }))).items
      .map((entry) => ({ kind: entry.kind, amount: entry.amount_cents, after: entry.balance_after_cents, id: entry.id }))
      .sort((a, b) => a.id - b.id)
      .map(({ kind, amount, after }) => ({ kind, amount, after }));
  const refusal = (code: ErrorCode) => expect.objectContaining({ code });
  const order = (by: AdminPrincipal, order_id: string, count = 1) =>
    orders.create(by, projectId, { order_id, card_type_id: typeId, count });

  describe('the ledger', () => {
    it('records every credit and debit with the balance after it, and refuses a debit below zero, moving nothing', async () => {
      const agent = await createAgent(t.app, author, { project_ids: [projectId] });
      await agents.credit(author, agent.id, { amount_cents: 5000 });
      await agents.credit(author, agent.id, { amount_cents: -2000, note: 'correction' });
      await expect(agents.credit(author, agent.id, { amount_cents: -3001 })).rejects.toEqual(
        refusal(ErrorCode.INSUFFICIENT_BALANCE),
      );
      expect(await balance(agent)).toBe(3000);
      expect(await entries(agent)).toEqual([
        { kind: 'credit', amount: 5000, after: 5000 },
        { kind: 'debit', amount: -2000, after: 3000 },
      ]);
    });

    it("pays a parent's credit to its sub-agent from the parent's own balance, and refuses one it cannot pay", async () => {
      const parent = await createAgent(t.app, author, { project_ids: [projectId], can_create_sub_agents: true });
      const child = await createAgent(t.app, parent, { project_ids: [projectId] });
      await agents.credit(author, parent.id, { amount_cents: 1000 });
      await agents.credit(parent, child.id, { amount_cents: 600 });
      await expect(agents.credit(parent, child.id, { amount_cents: 401 })).rejects.toEqual(
        refusal(ErrorCode.INSUFFICIENT_BALANCE),
      );
      expect([await balance(parent), await balance(child)]).toEqual([400, 600]);
    });

    it('applies 40 concurrent credits and debits exactly: the balance is the sum of its entries and never went below zero', async () => {
      const agent = await createAgent(t.app, author, { project_ids: [projectId] });
      const amounts = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 300 : -500));
      const outcomes = await Promise.allSettled(amounts.map((amount_cents) => agents.credit(author, agent.id, { amount_cents })));
      const taken = amounts.filter((_, i) => outcomes[i].status === 'fulfilled');
      for (const refused of outcomes.filter((outcome) => outcome.status === 'rejected'))
        expect(refused.reason).toEqual(refusal(ErrorCode.INSUFFICIENT_BALANCE));
      const ledger = await entries(agent);
      expect(ledger).toHaveLength(taken.length);
      expect(await balance(agent)).toBe(taken.reduce((sum, amount) => sum + amount, 0));
      let running = 0;
      for (const entry of ledger) {
        running += entry.amount;
        expect(entry.after).toBe(running);
        expect(entry.after).toBeGreaterThanOrEqual(0);
      }
    });
  });

  describe('orders', () => {
    it("makes an author's own order without moving money, and answers its replay with the same order", async () => {
      const made = await order(author, 'own-1', 2);
      expect(made.created).toBe(true);
      expect(made.order).toMatchObject({ agent_id: null, count: 2, total_cents: 0 });
      expect(made.order.items).toHaveLength(2);
      const replay = await order(author, 'own-1', 2);
      expect(replay.created).toBe(false);
      expect(replay.order.items.map((card) => card.id)).toEqual(made.order.items.map((card) => card.id));
      await expect(order(author, 'own-1', 3)).rejects.toEqual(refusal(ErrorCode.ORDER_CONFLICT));
    });

    it('debits an agent its discounted price for every card, pays the parent the difference, and refunds exactly that', async () => {
      const parent = await createAgent(t.app, author, {
        project_ids: [projectId],
        discount_percent: 30,
        can_create_sub_agents: true,
      });
      const child = await createAgent(t.app, parent, { project_ids: [projectId], discount_percent: 10 });
      await agents.credit(author, child.id, { amount_cents: 10_000 });
      const made = await order(child, 'agent-1', 3);
      expect(made.order).toMatchObject({ unit_price_cents: 900, total_cents: 2700, agent_id: child.id });
      expect([await balance(child), await balance(parent)]).toEqual([10_000 - 2700, 3 * 200]);

      const refund = await orders.refund(author, projectId, 'agent-1', { card_ids: [made.order.items[0].id] });
      expect(refund).toEqual({ card_ids: [made.order.items[0].id], refunded_cents: 900, clawback_cents: 200 });
      expect([await balance(child), await balance(parent)]).toEqual([10_000 - 1800, 400]);
      expect((await entries(parent)).map((entry) => [entry.kind, entry.amount])).toEqual([
        ['commission', 600],
        ['clawback', -200],
      ]);
    });

    it('refuses an order the balance cannot pay, making no order, no card and no entry', async () => {
      const agent = await createAgent(t.app, author, { project_ids: [projectId] });
      await agents.credit(author, agent.id, { amount_cents: 2 * PRICE - 1 });
      await expect(order(agent, 'short-1', 2)).rejects.toEqual(refusal(ErrorCode.INSUFFICIENT_BALANCE));
      await expect(orders.get(author, projectId, 'short-1')).rejects.toEqual(refusal(ErrorCode.ORDER_NOT_FOUND));
      expect(await balance(agent)).toBe(2 * PRICE - 1);
      expect(await entries(agent)).toHaveLength(1);
    });

    it('makes exactly the orders a balance pays for out of 30 racing ones, and one order for 10 racing twins', async () => {
      const agent = await createAgent(t.app, author, { project_ids: [projectId] });
      await agents.credit(author, agent.id, { amount_cents: 7 * PRICE });
      const raced = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => order(agent, `race-${i}`)));
      expect(raced.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(7);
      expect(await balance(agent)).toBe(0);

      await agents.credit(author, agent.id, { amount_cents: 5 * PRICE });
      const twins = await Promise.all(Array.from({ length: 10 }, () => order(agent, 'twin')));
      expect(twins.filter((twin) => twin.created)).toHaveLength(1);
      expect(new Set(twins.map((twin) => twin.order.items[0].id)).size).toBe(1);
      expect(await balance(agent)).toBe(4 * PRICE);
    });
  });
});
