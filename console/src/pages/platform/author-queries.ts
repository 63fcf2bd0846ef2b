import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Author = Schemas['AuthorView'];
export type AuthorChange = Schemas['UpdateAuthorDto'];

export const authorKeys = { all: ['authors'] as const };

export function authorListQuery(q: string, page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...authorKeys.all, q, page, pageSize],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/authors', { params: { query: { ...(q ? { q } : {}), page, page_size: pageSize } } })),
    placeholderData: (previous) => previous,
  });
}

export const updateAuthor = (id: string, change: AuthorChange) =>
  unwrap(api.PATCH('/admin/v1/authors/{id}', { params: { path: { id } }, body: change }));

/** A quota field of a form: empty means unlimited (null), as the API has it. */
export const quotaValue = (value: number | null | undefined): number | null => (typeof value === 'number' ? value : null);
