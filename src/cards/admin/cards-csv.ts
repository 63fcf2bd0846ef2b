import { Card } from '../card.entity';
import { toCardView } from './card.view';

export const CARD_CSV_COLUMNS = [
  'id', 'code', 'status', 'duration_seconds', 'device_limit', 'activated_at', 'expires_at', 'use_count', 'last_login_at', 'note', 'batch_id',
] as const;

/** RFC 4180 CSV of cards: a header row, CRLF line ends, null as an empty field. */
export function cardsCsv(cards: Card[]): string {
  const lines = [CARD_CSV_COLUMNS.join(',')];
  for (const card of cards) {
    const view = toCardView(card, []);
    lines.push(CARD_CSV_COLUMNS.map((column) => csvField(view[column])).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** Spreadsheets run a cell starting with one of these as a formula (OWASP: CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Quotes a field that holds a comma, a quote, a line break or edge spaces; quotes inside are doubled.
 * Text that a spreadsheet would run as a formula gets a leading `'` inside the quotes (OWASP).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) return quoted(`'${text}`);
  return /[",\r\n]|^\s|\s$/.test(text) ? quoted(text) : text;
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
