import { api, type Schemas } from '../../api/client';
import { ApiError, unwrap } from '../../api/errors';

export type ImportReport = Schemas['ImportReport'];
export type ImportDone = Schemas['ImportDone'];

/** The columns the import reads (src/cards/admin/cards-import.ts `IMPORT_COLUMNS`); `code` is the one required. */
export const IMPORT_COLUMNS = [
  'code',
  'kind',
  'uses_left',
  'duration_seconds',
  'device_limit',
  'concurrent_limit',
  'note',
  'status',
  'activated_at',
  'expires_at',
  'use_count',
  'unbind_count',
  'last_login_at',
  'devices',
] as const;

/**
 * Sends the file as it is (`text/csv`, its bytes untouched, so a file that is not UTF-8 is reported
 * by the service rather than silently repaired by the browser). The dry run answers the report.
 */
export function importCards(projectId: string, file: Blob, dryRun: true): Promise<ImportReport>;
export function importCards(projectId: string, file: Blob, dryRun: false): Promise<ImportDone>;
export async function importCards(projectId: string, file: Blob, dryRun: boolean): Promise<ImportReport | ImportDone> {
  return unwrap(
    api.POST('/admin/v1/projects/{id}/cards/import', {
      params: { path: { id: projectId }, query: dryRun ? { dry_run: true } : {} },
      body: file as unknown as string,
      bodySerializer: (body) => body,
      headers: { 'Content-Type': 'text/csv' },
    }),
  );
}

/** The report a refused import carries in its details (`CARD_IMPORT_INVALID`), e.g. a code taken since the dry run. */
export function reportOf(error: unknown): ImportReport | undefined {
  const details = error instanceof ApiError ? (error.details as Partial<ImportReport> | undefined) : undefined;
  return details && Array.isArray(details.problems) && typeof details.rows === 'number' ? (details as ImportReport) : undefined;
}
