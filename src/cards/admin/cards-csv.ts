import { csvField } from '../../common/csv';
import { formatLocalTime } from '../../common/time';
import { CardDevice } from '../card-device.entity';
import { Card } from '../card.entity';
import { toCardView } from './card.view';

/**
 * The columns of the export, in order. Every field of a card is there; `devices` holds the bound
 * machine codes, one per line, in binding order. The import (cards-import.ts) reads this file back.
 */
export const CARD_CSV_COLUMNS = [
  'id',
  'code',
  'status',
  'duration_seconds',
  'device_limit',
  'activated_at',
  'expires_at',
  'use_count',
  'last_login_at',
  'note',
  'batch_id',
  'kind',
  'uses_left',
  'concurrent_limit',
  'unbind_count',
  'created_at',
  'devices',
  'holder_email',
] as const;

/** The header row and its line end. */
export function cardsCsvHeader(): string {
  return CARD_CSV_COLUMNS.join(',') + '\r\n';
}

/**
 * RFC 4180 CSV rows of cards (no header): CRLF line ends, null as an empty field. `devices` may
 * hold the bound devices of these cards (and others); each card's are picked out.
 */
export function cardsCsvRows(cards: Card[], devices: CardDevice[] = []): string {
  const byCard = machineCodesByCard(devices);
  return cards.map((card) => csvLine(CARD_CSV_COLUMNS, csvRow(card, byCard))).join('');
}

type CsvRow = Record<(typeof CARD_CSV_COLUMNS)[number], string | number | null>;

/** A card as the default export writes it (its view's fields, times in ISO UTC). */
function csvRow(card: Card, byCard: Map<number, string[]>): CsvRow {
  return {
    ...toCardView(card, []),
    unbind_count: card.unbindCount ?? 0,
    created_at: card.createdAt ? card.createdAt.toISOString() : null,
    devices: (byCard.get(card.id) ?? []).join('\n') || null,
  };
}

/** Each card's bound machine codes, in the order given (binding order). */
function machineCodesByCard(devices: CardDevice[]): Map<number, string[]> {
  const byCard = new Map<number, string[]>();
  for (const d of devices) {
    const list = byCard.get(d.cardId);
    if (list) list.push(d.machineCode);
    else byCard.set(d.cardId, [d.machineCode]);
  }
  return byCard;
}

function csvLine<C extends string>(columns: readonly C[], row: Record<C, string | number | null>): string {
  return columns.map((column) => csvField(row[column])).join(',') + '\r\n';
}

/** RFC 4180 CSV of cards: a header row, CRLF line ends, null as an empty field. */
export function cardsCsv(cards: Card[], devices: CardDevice[] = []): string {
  return cardsCsvHeader() + cardsCsvRows(cards, devices);
}

/**
 * The export for a spreadsheet (`?format=excel`, docs/cards.md "Export"): a UTF-8 BOM so that
 * Excel reads Chinese notes right, each card's type by name, the duration in days beside the
 * seconds, and times as `YYYY-MM-DD HH:mm:ss` in APP_TIMEZONE, the zone named in their headers.
 * Not read back by the import (that reads the default export). Its columns are the default
 * export's, with the type's name and the days after `status`.
 */
export const CARD_EXCEL_COLUMNS = CARD_CSV_COLUMNS.flatMap((column) =>
  column === 'status' ? ([column, 'card_type', 'duration_days'] as const) : ([column] as const),
);
type ExcelColumn = (typeof CARD_EXCEL_COLUMNS)[number];
const EXCEL_TIMES = new Set<string>(['activated_at', 'expires_at', 'last_login_at', 'created_at']);

/** The BOM and the header row, each time column naming its zone: `expires_at (Asia/Shanghai)`. */
export function cardsExcelHeader(timeZone: string): string {
  return '\ufeff' + CARD_EXCEL_COLUMNS.map((c) => (EXCEL_TIMES.has(c) ? `${c} (${timeZone})` : c)).join(',') + '\r\n';
}

/** A duration in days, to at most 2 decimals (3600 s is 0.04; 0 for a count card's 0). */
function days(seconds: number): number {
  return Math.round((seconds / 86_400) * 100) / 100;
}

/** Rows of the spreadsheet export; `typeNames` holds the names of the cards' types by id. */
export function cardsExcelRows(cards: Card[], devices: CardDevice[], typeNames: Map<number, string>, timeZone: string): string {
  const byCard = machineCodesByCard(devices);
  const local = (date: Date | null) => (date ? formatLocalTime(date, timeZone) : null);
  return cards
    .map((card) =>
      csvLine<ExcelColumn>(CARD_EXCEL_COLUMNS, {
        ...csvRow(card, byCard),
        card_type: card.cardTypeId ? (typeNames.get(card.cardTypeId) ?? null) : null,
        duration_days: days(card.durationSeconds),
        activated_at: local(card.activatedAt),
        expires_at: local(card.expiresAt),
        last_login_at: local(card.lastLoginAt),
        created_at: local(card.createdAt),
      }),
    )
    .join('');
}
