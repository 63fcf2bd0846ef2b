import { DataSource } from 'typeorm';
import { AdminClient, login } from './admin-client';
import { TestApp, unique } from './test-app';

export interface TestAgent {
  id: string;
  username: string;
  password: string;
  client: AdminClient;
  body: Record<string, unknown> & { balance_cents: number; level: number };
}

/** Creates an agent as `creator` (an author, or an agent allowed sub-agents) and signs it in. */
export async function createAgent(t: TestApp, creator: AdminClient, fields: Record<string, unknown>): Promise<TestAgent> {
  const username = unique('agent');
  const password = 'agent-password-1';
  const res = await creator.post('/admin/v1/agents', { username, password, discount_percent: 0, ...fields });
  if (res.status !== 201) throw new Error(`agent not created: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, username, password, client: new AdminClient(t, await login(t, username, password)), body: res.body };
}

/** Credits an agent (author or parent), expecting success. */
export async function credit(
  by: AdminClient,
  agentId: string,
  amount: number,
  note = 'top-up',
): Promise<Record<string, unknown>> {
  const res = await by.post(`/admin/v1/agents/${agentId}/credits`, { amount_cents: amount, note });
  if (res.status !== 200) throw new Error(`credit refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function balanceOf(t: TestApp, agentId: string): Promise<number> {
  const [row] = (await t.app.get(DataSource).query(`SELECT balance_cents FROM agents WHERE id = $1`, [agentId])) as Array<{
    balance_cents: string;
  }>;
  return Number(row.balance_cents);
}

/** Every ledger entry of an agent, oldest first, from the database. */
export async function ledgerOf(
  t: TestApp,
  agentId: string,
): Promise<Array<{ kind: string; amount_cents: number; balance_after_cents: number }>> {
  const rows = (await t.app
    .get(DataSource)
    .query(`SELECT kind, amount_cents, balance_after_cents FROM agent_ledger WHERE agent_id = $1 ORDER BY id`, [
      agentId,
    ])) as Array<Record<string, string>>;
  return rows.map((r) => ({
    kind: r.kind,
    amount_cents: Number(r.amount_cents),
    balance_after_cents: Number(r.balance_after_cents),
  }));
}

/** The platform's ledger check, through its route, expected to pass. */
export async function expectLedgerConsistent(admin: AdminClient): Promise<void> {
  const res = await admin.get('/admin/v1/platform/ledger-check').expect(200);
  expect(res.body).toEqual(expect.objectContaining({ severity: 'ok', mismatches: [], order_mismatches: [] }));
}

export const TYPE = {
  name: 'Month',
  kind: 'time',
  duration_seconds: 30 * 86400,
  device_limit: 1,
  features: [],
  price_cents: 1000,
  agent_allowed: true,
};

export async function createType(author: AdminClient, projectId: string, body: object = {}): Promise<{ id: number }> {
  return (await author.post(`/admin/v1/projects/${projectId}/card-types`, { ...TYPE, name: unique('T'), ...body }).expect(201))
    .body;
}
