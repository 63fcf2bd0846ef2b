/** One record of a CSV text: its fields and the line (1-based) it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Why a record could not be read (import-problems.ts has the words). */
export type CsvSyntaxReason = 'quote_not_closed' | 'text_after_quote' | 'quote_in_unquoted_field';

/** A record that could not be read (a stray or unterminated quote); it is left out of `records`. */
export interface CsvSyntaxError {
  line: number;
  reason: CsvSyntaxReason;
}

export interface CsvText {
  records: CsvRecord[];
  errors: CsvSyntaxError[];
}

/**
 * Reads RFC 4180 CSV: comma-separated fields, CRLF or LF line ends, fields in double quotes may hold
 * commas, line breaks and doubled quotes. A leading UTF-8 byte order mark is skipped, blank lines
 * are skipped, and the last line needs no line end. A quote inside an unquoted field, text after a
 * closing quote, or a quote left open is a syntax error of that record, which is skipped up to the
 * next line end (the rest of the file is still read, so every bad line is reported at once).
 */
export function readCsv(input: string): CsvText {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  const errors: CsvSyntaxError[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;

  while (i < n) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    let error: CsvSyntaxReason | null = null;
    let ended = false;
    // One record: fields until an unquoted line end or the end of the text.
    while (!ended) {
      if (i < n && text[i] === '"') {
        i++;
        let closed = false;
        while (i < n) {
          const ch = text[i];
          if (ch === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (ch === '\n') line++;
          field += ch;
          i++;
        }
        if (!closed) {
          error = 'quote_not_closed';
          break;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          error = 'text_after_quote';
          break;
        }
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') break;
          field += text[i];
          i++;
        }
        if (i < n && text[i] === '"') {
          error = 'quote_in_unquoted_field';
          break;
        }
      }
      fields.push(field);
      field = '';
      if (i >= n) {
        ended = true;
      } else if (text[i] === ',') {
        i++;
      } else {
        i += text[i] === '\r' ? 2 : 1;
        line++;
        ended = true;
      }
    }
    if (error !== null) {
      // Skip the rest of the broken record's line.
      while (i < n && text[i] !== '\n') i++;
      if (i < n) {
        i++;
        line++;
      }
      errors.push({ line: start, reason: error });
      continue;
    }
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    records.push({ line: start, fields });
  }
  return { records, errors };
}
