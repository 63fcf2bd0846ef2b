import { ApiError } from '../../api/errors';
import type { ImportReport } from './card-queries';

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

/** The report a refused import carries in its details (`CARD_IMPORT_INVALID`), e.g. a code taken since the dry run. */
export function reportOf(error: unknown): ImportReport | undefined {
  const details = error instanceof ApiError ? (error.details as Partial<ImportReport> | undefined) : undefined;
  return details && Array.isArray(details.problems) && typeof details.rows === 'number' ? (details as ImportReport) : undefined;
}
