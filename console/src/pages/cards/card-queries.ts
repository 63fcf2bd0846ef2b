import { queryOptions } from '@tanstack/react-query';
import { api, type CardStatus, type Schemas } from '../../api/client';
import type { paths } from '../../api/schema';
import { unwrap } from '../../api/errors';

/** The list's filters as the admin API names them; `machine` is a device bound to the card. */
export interface CardFilters {
  status?: CardStatus;
  batch_id?: string;
  q?: string;
  machine?: string;
}

export const FILTER_NAMES = ['status', 'batch_id', 'q', 'machine'] as const;

/** The list's order as the API names it (`-` = descending); none = the API's default, newest first. */
export type CardSort = NonNullable<NonNullable<paths['/admin/v1/projects/{id}/cards']['get']['parameters']['query']>['sort']>;
export const CARD_SORTS: readonly CardSort[] = [
  'created_at',
  '-created_at',
  'expires_at',
  '-expires_at',
  'last_login_at',
  '-last_login_at',
  'code',
  '-code',
];

export const cardKeys = {
  ofProject: (projectId: string) => ['cards', projectId] as const,
  list: (projectId: string, filters: CardFilters, page: number, pageSize: number, sort?: CardSort) =>
    ['cards', projectId, 'list', filters, page, pageSize, sort] as const,
  one: (projectId: string, cardId: number) => ['cards', projectId, 'one', cardId] as const,
};

export function cardListQuery(projectId: string, filters: CardFilters, page: number, pageSize: number, sort?: CardSort) {
  return queryOptions({
    queryKey: cardKeys.list(projectId, filters, page, pageSize, sort),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/cards', {
          params: { path: { id: projectId }, query: { ...filters, sort, page, page_size: pageSize } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

export type CardDevice = Schemas['CardDeviceView'];
export type CardChanges = Schemas['UpdateCardDto'];
export type NewCards = Schemas['CreateCardsDto'];
export type BulkCards = Schemas['BulkCardsDto'];

export function cardQuery(projectId: string, cardId: number) {
  return queryOptions({
    queryKey: cardKeys.one(projectId, cardId),
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/cards/{cardId}', { params: { path: { id: projectId, cardId } } })),
  });
}

/** Only the fields in `changes` are changed (the edit form sends what differs; ban and unban send the status). */
export function updateCard(projectId: string, cardId: number, changes: CardChanges) {
  return unwrap(
    api.PATCH('/admin/v1/projects/{id}/cards/{cardId}', { params: { path: { id: projectId, cardId } }, body: changes }),
  );
}

export function unbindDevice(projectId: string, cardId: number, machine: string) {
  return unwrap(
    api.DELETE('/admin/v1/projects/{id}/cards/{cardId}/devices/{machine}', {
      params: { path: { id: projectId, cardId, machine } },
    }),
  );
}

/** A batch; the same `idempotencyKey` (one per opened form) gets the same batch back on a retried submission. */
export function generateCards(projectId: string, body: NewCards, idempotencyKey: string) {
  return unwrap(
    api.POST('/admin/v1/projects/{id}/cards', {
      params: { path: { id: projectId }, header: { 'Idempotency-Key': idempotencyKey } },
      body,
    }),
  );
}

/** One action on the listed ids, or on every card a filter matches (`{ all: true }`: the whole project). */
export function bulkCards(projectId: string, body: BulkCards) {
  return unwrap(api.POST('/admin/v1/projects/{id}/cards/bulk', { params: { path: { id: projectId } }, body }));
}

export type CardExportFormat = 'excel' | 'data' | 'txt';

/**
 * Every card the filters match, saved by the browser (the export needs the Bearer token, so no plain
 * link): `excel` a CSV for a spreadsheet (BOM, local times, days, type names), `data` the CSV the
 * import reads back, `txt` the keys alone, one a line.
 */
export async function downloadCardsCsv(
  projectId: string,
  filters: CardFilters,
  format: CardExportFormat = 'data',
): Promise<void> {
  const path = { id: projectId };
  const file =
    format === 'txt'
      ? await unwrap(api.GET('/admin/v1/projects/{id}/cards/export.txt', { params: { path, query: filters }, parseAs: 'blob' }))
      : await unwrap(
          api.GET('/admin/v1/projects/{id}/cards/export.csv', {
            params: { path, query: { ...filters, format } },
            parseAs: 'blob',
          }),
        );
  saveFile(file, `cards-${projectId.slice(0, 8)}.${format === 'txt' ? 'txt' : 'csv'}`);
}

export function saveFile(content: Blob, fileName: string): void {
  const url = URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export type ImportReport = Schemas['ImportReport'];
export type ImportDone = Schemas['ImportDone'];

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
