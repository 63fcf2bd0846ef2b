import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';

export const projectKeys = {
  all: ['projects'] as const,
  list: (page: number, pageSize: number, q: string) => ['projects', 'list', { page, pageSize, q }] as const,
  one: (id: string) => ['projects', 'one', id] as const,
};

export function projectQuery(id: string) {
  return queryOptions({
    queryKey: projectKeys.one(id),
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}', { params: { path: { id } } })),
  });
}

export function projectListQuery(page: number, pageSize: number, q: string) {
  return queryOptions({
    queryKey: projectKeys.list(page, pageSize, q),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/projects', { params: { query: { page, page_size: pageSize, ...(q ? { q } : {}) } } })),
  });
}
