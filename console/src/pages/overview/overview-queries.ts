import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';

const WEEK_MS = 7 * 86_400_000;

/** How many cards expire within the next week (the total of a one-row page), counted from when it is fetched. */
export function expiringSoonQuery(projectId: string) {
  return queryOptions({
    queryKey: ['cards', projectId, 'expiring-soon'],
    queryFn: () => {
      const now = Date.now();
      const query = {
        expires_from: new Date(now).toISOString(),
        expires_to: new Date(now + WEEK_MS).toISOString(),
        page: 1,
        page_size: 1,
      };
      return unwrap(api.GET('/admin/v1/projects/{id}/cards', { params: { path: { id: projectId }, query } }));
    },
  });
}
