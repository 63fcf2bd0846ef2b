/** Spreadsheets run a cell starting with one of these as a formula (OWASP: CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Quotes a field that holds a comma, a quote, a line break or edge spaces; quotes inside are doubled.
 * Text that a spreadsheet would run as a formula gets a leading `'` inside the quotes (OWASP).
 * Every CSV export uses it (cards, audit trail).
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
