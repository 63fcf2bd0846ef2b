import { queryOptions } from '@tanstack/react-query';
import { api, type Card, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { saveFile } from '../cards/card-queries';

export type SellableType = Schemas['AgentCardTypeView'];

export const meKeys = {
  me: ['agents', 'me'] as const,
  cardTypes: ['agents', 'me', 'card-types'] as const,
};

/**
 * The signed-in agent's own account: balance, projects, discount and rights. The balance moves from
 * outside too (a credit, a sub-agent's sale), so each page that shows it reads it afresh.
 */
export function meQuery() {
  return queryOptions({ queryKey: meKeys.me, queryFn: () => unwrap(api.GET('/admin/v1/agents/me')), staleTime: 0 });
}

/** The card types the signed-in agent may sell, each with its price for the agent. */
export function myCardTypesQuery() {
  return queryOptions({ queryKey: meKeys.cardTypes, queryFn: () => unwrap(api.GET('/admin/v1/agents/me/card-types')) });
}

/** The filters of the agent's card list as the API names them. */
export interface MyCardFilters {
  project_id?: string;
  status?: 'unused' | 'active' | 'banned' | 'consumed';
  q?: string;
  batch_id?: string;
}
export const MY_CARD_FILTERS = ['project_id', 'status', 'q', 'batch_id'] as const;

export function myCardsQuery(filters: MyCardFilters, page: number, pageSize: number) {
  return queryOptions({
    queryKey: ['agents', 'me', 'cards', filters, page, pageSize] as const,
    queryFn: () => unwrap(api.GET('/admin/v1/agents/me/cards', { params: { query: { ...filters, page, page_size: pageSize } } })),
    placeholderData: (previous) => previous,
  });
}

/** Bans or unbans one of the agent's cards (the agent's `can_ban` right). */
export function setMyCardStatus(card: Card, status: 'banned' | 'active') {
  return unwrap(api.PATCH('/admin/v1/agents/me/cards/{cardId}', { params: { path: { cardId: card.id } }, body: { status } }));
}

/** Unbinds a device from one of the agent's cards (the agent's `can_unbind` right). */
export function unbindMyCardDevice(card: Card, machine: string) {
  return unwrap(
    api.DELETE('/admin/v1/agents/me/cards/{cardId}/devices/{machine}', { params: { path: { cardId: card.id, machine } } }),
  );
}

/** The CSV of the agent's cards the filters match (the project export's columns), saved by the browser. */
export async function downloadMyCardsCsv(filters: MyCardFilters): Promise<void> {
  const csv = await unwrap(api.GET('/admin/v1/agents/me/cards/export.csv', { params: { query: filters }, parseAs: 'blob' }));
  saveFile(csv, 'my-cards.csv');
}

/** An order of `count` cards of a type at the agent's price; the same `orderId` gets the same order back. */
export function placeOrder(type: SellableType, orderId: string, count: number) {
  return unwrap(
    api.POST('/admin/v1/projects/{id}/orders', {
      params: { path: { id: type.project_id } },
      body: { order_id: orderId, card_type_id: type.id, count },
    }),
  );
}
