import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { fromZoneInput } from '../../components/time-zone';
import { saveFile } from '../cards/card-queries';

export type AuditEntry = Schemas['AuditEntryView'];

/** The audit page's filters as the address keeps them: `from` and `to` are wall-clock times of the user's zone. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  resource_type?: string;
  resource_id?: string;
  project_id?: string;
  outcome?: 'success' | 'refused';
  from?: string;
  to?: string;
}

export const AUDIT_FILTER_NAMES = [
  'actor',
  'action',
  'resource_type',
  'resource_id',
  'project_id',
  'outcome',
  'from',
  'to',
] as const;

/** What the API is asked: the date range as instants of the user's zone. */
function auditQuery(filters: AuditFilters, zone: string) {
  const { from, to, ...rest } = filters;
  return {
    ...rest,
    ...(from ? { from: fromZoneInput(from, zone).toISOString() } : {}),
    ...(to ? { to: fromZoneInput(to, zone).toISOString() } : {}),
  };
}

/** The trail, newest first; the service scopes it (a platform admin: everything; an author: their projects and account). */
export function auditListQuery(filters: AuditFilters, zone: string, page: number, pageSize: number) {
  const query = { ...auditQuery(filters, zone), page, page_size: pageSize };
  return queryOptions({
    queryKey: ['audit', query],
    queryFn: () => unwrap(api.GET('/admin/v1/audit', { params: { query } })),
    placeholderData: (previous) => previous,
  });
}

/** The CSV of what the filters match, saved by the browser (the export needs the Bearer token, so no plain link). */
export async function downloadAuditCsv(filters: AuditFilters, zone: string): Promise<void> {
  const csv = await unwrap(
    api.GET('/admin/v1/audit/export.csv', { params: { query: auditQuery(filters, zone) }, parseAs: 'blob' }),
  );
  saveFile(csv, 'audit.csv');
}
