import type { SortOrder } from 'antd/es/table/interface';
import { CARD_SORTS, type CardSort } from './card-queries';

/** The columns the API can order by (each a `sort` value, `-` before it for descending). */
export type SortableColumn = 'code' | 'created_at' | 'expires_at' | 'last_login_at';

/** Newest first: the API's order without `sort`, so the address does not need to name it. */
const DEFAULT_SORT: CardSort = '-created_at';

/** The address's `sort`, when it is one the API takes (a hand-edited address falls back to the default). */
export function readSort(value: string | undefined): CardSort | undefined {
  return CARD_SORTS.find((sort) => sort === value && sort !== DEFAULT_SORT);
}

/** The arrow a column header shows for the list's order. */
export function columnOrder(sort: CardSort | undefined, column: SortableColumn): SortOrder {
  const current = sort ?? DEFAULT_SORT;
  if (current === column) return 'ascend';
  if (current === `-${column}`) return 'descend';
  return null;
}

/** The order a header click asks for; no order (or the default's) leaves `sort` out of the address. */
export function sortOf(column: SortableColumn, order: SortOrder | undefined): CardSort | undefined {
  if (!order) return undefined;
  return readSort(order === 'descend' ? `-${column}` : column);
}

/**
 * Header clicks alternate ascending and descending and never fall back to "unsorted", which the
 * list does not have (it is always in some order).
 */
export const SORT_DIRECTIONS: SortOrder[] = ['ascend', 'descend', 'ascend'];
