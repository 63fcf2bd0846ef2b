import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type LiveSession = Schemas['LiveSessionView'];
export type SessionType = LiveSession['type'];
export const SESSION_TYPES: SessionType[] = ['card', 'app_user'];

/** The sessions page's filters as the admin API names them (kept in the address). */
export interface SessionFilters {
  type?: SessionType;
  machine_id?: string;
}
export const SESSION_FILTER_NAMES = ['type', 'machine_id'] as const;

export function sessionListQuery(projectId: string, filters: SessionFilters, page: number, pageSize: number) {
  return queryOptions({
    queryKey: ['sessions', projectId, filters, page, pageSize],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/sessions', {
          params: { path: { id: projectId }, query: { ...filters, page, page_size: pageSize } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

/** Live sessions by type and today's quota use per interface (the Overview, "Force everyone offline"). */
export function usageQuery(projectId: string) {
  return queryOptions({
    queryKey: ['sessions', projectId, 'usage'],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/usage', { params: { path: { id: projectId } } })),
  });
}

/** Whose sessions to end: one card's, one program user's, or (empty) everyone's. */
export type RevokeTarget = { card_id: number } | { user_id: number } | Record<string, never>;

export function revokeSessions(projectId: string, target: RevokeTarget) {
  return unwrap(api.POST('/admin/v1/projects/{id}/sessions/revoke', { params: { path: { id: projectId } }, body: target }));
}
