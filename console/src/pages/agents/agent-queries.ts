import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Agent = Schemas['AgentView'];
export type LedgerEntry = Schemas['LedgerEntryView'];
export type LedgerKind = LedgerEntry['kind'];
export type SalesItem = Schemas['SalesItem'];

export const agentKeys = {
  all: ['agents'] as const,
  list: (page: number, pageSize: number, q: string) => ['agents', 'list', { page, pageSize, q }] as const,
  one: (id: string) => ['agents', 'one', id] as const,
  ledger: (id: string, page: number, pageSize: number) => ['agents', 'ledger', id, { page, pageSize }] as const,
  sales: (scope: string, from: string, to: string) => ['agents', 'sales', scope, from, to] as const,
};

/** The agents the account may see: an author's own, an agent's sub-agents (the service decides). */
export function agentListQuery(page: number, pageSize: number, q: string) {
  return queryOptions({
    queryKey: agentKeys.list(page, pageSize, q),
    queryFn: () => unwrap(api.GET('/admin/v1/agents', { params: { query: { page, page_size: pageSize, ...(q ? { q } : {}) } } })),
    placeholderData: (previous) => previous,
    staleTime: 0, // balances move with every sale and credit
  });
}

/** Every agent the account may see, up to the API's page size: the names of parents, the choice of one. */
export function allAgentsQuery() {
  return queryOptions({
    queryKey: agentKeys.list(1, 100, ''),
    queryFn: () => unwrap(api.GET('/admin/v1/agents', { params: { query: { page: 1, page_size: 100 } } })),
  });
}

export function agentQuery(id: string) {
  return queryOptions({
    queryKey: agentKeys.one(id),
    queryFn: () => unwrap(api.GET('/admin/v1/agents/{id}', { params: { path: { id } } })),
    staleTime: 0, // its balance moves with every sale and credit
  });
}

export function ledgerQuery(id: string, page: number, pageSize: number) {
  return queryOptions({
    queryKey: agentKeys.ledger(id, page, pageSize),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/agents/{id}/ledger', { params: { path: { id }, query: { page, page_size: pageSize } } })),
    placeholderData: (previous) => previous,
    staleTime: 0,
  });
}

export type NewAgent = Schemas['CreateAgentDto'];

/** A new agent (an agent making one is its parent; the service checks what it may give). */
export function createAgent(body: NewAgent) {
  return unwrap(api.POST('/admin/v1/agents', { body }));
}

/** A credit (positive cents) or a debit (negative), with its note; one ledger entry either way. */
export function credit(id: string, amountCents: number, note: string) {
  return unwrap(
    api.POST('/admin/v1/agents/{id}/credits', {
      params: { path: { id } },
      body: { amount_cents: amountCents, ...(note ? { note } : {}) },
    }),
  );
}

export function setAgentStatus(id: string, status: Agent['status']) {
  return unwrap(api.PATCH('/admin/v1/agents/{id}', { params: { path: { id } }, body: { status } }));
}

/** YYYY-MM-DD of a local day, `back` days before today. */
export function localDay(back: number): string {
  const day = new Date(Date.now() - back * 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

/** The days the sales pages show: the last 30, today included. */
export const SALES_DAYS = 30;

/** An agent's sales per day, project and card type, from the service's counters. */
export function agentSalesQuery(id: string, from: string, to: string) {
  return queryOptions({
    queryKey: agentKeys.sales(`agent:${id}`, from, to),
    queryFn: () => unwrap(api.GET('/admin/v1/agents/{id}/sales', { params: { path: { id }, query: { from, to } } })),
  });
}

export type AgentPrice = Schemas['AgentPriceView'];

/** The card types an agent may sell, each with its list, discounted, own and effective price. */
export function agentPricesQuery(id: string) {
  return queryOptions({
    queryKey: ['agents', 'prices', id] as const,
    queryFn: () => unwrap(api.GET('/admin/v1/agents/{id}/prices', { params: { path: { id } } })),
  });
}

/** Sets the agent's own price for a type (null: removes it, the discount applies again). */
export function setAgentPrice(id: string, typeId: number, priceCents: number | null) {
  const params = { path: { id, typeId } };
  return priceCents === null
    ? unwrap(api.DELETE('/admin/v1/agents/{id}/prices/{typeId}', { params }))
    : unwrap(api.PUT('/admin/v1/agents/{id}/prices/{typeId}', { params, body: { price_cents: priceCents } }));
}
