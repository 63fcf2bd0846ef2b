import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { fromZoneInput } from '../../components/time-zone';

export type RequestEntry = Schemas['RequestLogView'];
export type ClientFamily = 'connect' | 'v3' | 'sdk' | 'legacy' | 'portal';
/** The families the request log can be filtered by. */
export const FILTER_FAMILIES = ['connect', 'v3', 'sdk', 'legacy', 'portal'] as const;

/** The request log's filters as the address keeps them: `from` and `to` are wall-clock times of the user's zone. */
export interface RequestFilters {
  request_id?: string;
  card?: string;
  machine_code?: string;
  ip?: string;
  result_code?: string;
  family?: ClientFamily;
  from?: string;
  to?: string;
}

export const REQUEST_FILTER_NAMES = ['request_id', 'card', 'machine_code', 'ip', 'result_code', 'family', 'from', 'to'] as const;

/** 0 and 1 are the families' success codes; anything else is the catalog code of a refusal. */
export const isSuccessCode = (code: number) => code === 0 || code === 1;

/** The request log, newest first; the date range is turned into instants in the user's zone. */
export function requestListQuery(projectId: string, filters: RequestFilters, zone: string, page: number, pageSize: number) {
  const { result_code, from, to, ...rest } = filters;
  const query = {
    ...rest,
    ...(result_code ? { result_code: Number(result_code) } : {}),
    ...(from ? { from: fromZoneInput(from, zone).toISOString() } : {}),
    ...(to ? { to: fromZoneInput(to, zone).toISOString() } : {}),
    page,
    page_size: pageSize,
  };
  return queryOptions({
    queryKey: ['requests', projectId, query],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/requests', { params: { path: { id: projectId }, query } })),
    placeholderData: (previous) => previous,
  });
}

/** One request with the explanation of the rule that decided it. */
export function requestQuery(projectId: string, requestId: string) {
  return queryOptions({
    queryKey: ['request', projectId, requestId],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/projects/{id}/requests/{requestId}', { params: { path: { id: projectId, requestId } } })),
  });
}

/**
 * Login counts per local day of `tz` (the user's display zone), interface and result, both days
 * included; the answer's `time_zone` says the zone its days are in (the service's own for a long window).
 */
export function statsQuery(projectId: string, from: string, to: string, tz: string) {
  return queryOptions({
    queryKey: ['stats', projectId, from, to, tz],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/projects/{id}/stats', { params: { path: { id: projectId }, query: { from, to, tz } } })),
  });
}
