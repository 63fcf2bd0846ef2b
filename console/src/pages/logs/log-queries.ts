import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type LoginLog = Schemas['LoginLogView'];
export type ClientFamily = LoginLog['family'];
/** The families the log can be filtered by (the portal's calls are listed, not filtered on). */
export const FILTER_FAMILIES = ['connect', 'v3', 'sdk', 'legacy'] as const;
type FilterFamily = (typeof FILTER_FAMILIES)[number];

/** The log's filters as the admin API names them. */
export interface LogFilters {
  request_id?: string;
  machine_code?: string;
  result_code?: string;
  family?: FilterFamily;
  interface?: string;
}

export const LOG_FILTER_NAMES = ['request_id', 'machine_code', 'result_code', 'family', 'interface'] as const;

/** 0 and 1 are the families' success codes; anything else is the catalog code of a refusal. */
export const isSuccessCode = (code: number) => code === 0 || code === 1;

export function logListQuery(projectId: string, filters: LogFilters, page: number, pageSize: number) {
  const { result_code, ...rest } = filters;
  return queryOptions({
    queryKey: ['logs', projectId, filters, page, pageSize],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/logs', {
          params: { path: { id: projectId }, query: { ...rest, ...(result_code ? { result_code: Number(result_code) } : {}), page, page_size: pageSize } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

/** Login counts per local day, interface and result (the service's time zone), both days included. */
export function statsQuery(projectId: string, from: string, to: string) {
  return queryOptions({
    queryKey: ['stats', projectId, from, to],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/stats', { params: { path: { id: projectId }, query: { from, to } } })),
  });
}
