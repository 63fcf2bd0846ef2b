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

/** What the reader hands on, in the file's order. */
export type CsvItem = ({ kind: 'record' } & CsvRecord) | ({ kind: 'error' } & CsvSyntaxError);

/**
 * A cell or a record longer than the reader's caps: thrown as soon as the cap is passed, so a huge
 * cell is refused after reading `max` characters of it, never buffered whole.
 */
export class CsvTooLongError extends Error {
  constructor(
    readonly line: number,
    /** The 0-based index of the cell, or null when the record as a whole is too long. */
    readonly field: number | null,
    readonly max: number,
  ) {
    super(
      field === null
        ? `line ${line}: the row is longer than ${max} characters`
        : `line ${line}: cell ${field + 1} is longer than ${max} characters`,
    );
  }
}

export interface CsvCaps {
  /** The most characters (UTF-16 units) cell `index` may hold. */
  cell: (index: number) => number;
  /** The most characters a record may hold, its separators and quotes included. */
  record: number;
}

const UNLIMITED: CsvCaps = { cell: () => Infinity, record: Infinity };

const enum State {
  /** At the start of a field (of a new record when `fields` is empty). */
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: doubled (a quote), or the end of the field. */
  QuoteInQuoted,
  /** A CR after a closing quote: the record's end when an LF follows, else text after the quote. */
  QuoteThenCr,
  /** A CR outside quotes: a line end when an LF follows, else text. */
  CarriageReturn,
  /** After a syntax error: everything up to the next LF is read past. */
  SkipLine,
}

/**
 * Reads RFC 4180 CSV incrementally: `push` text as it arrives, `end` when it is all there; each
 * returns the records (and syntax errors) completed so far, so memory holds one record, never the
 * file. Comma-separated fields, CRLF or LF line ends, fields in double quotes may hold commas, line
 * breaks and doubled quotes. A leading byte order mark is skipped, blank lines are skipped, and the
 * last line needs no line end. A quote inside an unquoted field, text after a closing quote, or a
 * quote left open is a syntax error of that record, which is skipped up to the next line end (the
 * rest of the file is still read, so every bad line is reported at once). A cell or record past its
 * cap throws CsvTooLongError at once.
 *
 * Hand-written rather than a library's: this per-line recovery and its three reasons are part of
 * the import's contract (the console translates them), and the caps differ by column.
 */
export class CsvReader {
  private state = State.FieldStart;
  private fields: string[] = [];
  private field = '';
  private recordChars = 0;
  private line = 1;
  private recordLine = 1;
  private started = false;
  private out: CsvItem[] = [];

  /** `onItem` sees each record or error as soon as it is complete, before the next character is read. */
  constructor(
    private caps: CsvCaps = UNLIMITED,
    private readonly onItem?: (item: CsvItem) => void,
  ) {}

  /** New caps from the next character on (the header decides which column may hold what). */
  setCaps(caps: CsvCaps): void {
    this.caps = caps;
  }

  push(text: string): CsvItem[] {
    let i = 0;
    if (!this.started && text.length) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (const n = text.length; i < n; i++) this.read(text[i]);
    return this.take();
  }

  end(): CsvItem[] {
    switch (this.state) {
      case State.Quoted:
        this.emit({ kind: 'error', line: this.recordLine, reason: 'quote_not_closed' });
        break;
      case State.QuoteThenCr:
        this.emit({ kind: 'error', line: this.recordLine, reason: 'text_after_quote' });
        break;
      case State.SkipLine:
        break;
      default:
        if (this.state === State.CarriageReturn) this.append('\r');
        if (this.fields.length || this.field !== '' || this.state !== State.FieldStart) this.endRecord();
    }
    this.newRecord();
    return this.take();
  }

  private read(ch: string): void {
    switch (this.state) {
      case State.SkipLine:
        if (ch === '\n') {
          this.line++;
          this.newRecord();
        }
        return;
      case State.QuoteThenCr:
        if (ch === '\n') {
          this.line++;
          this.endRecord();
        } else {
          this.fail('text_after_quote');
        }
        return;
      case State.Quoted:
        if (ch === '"') {
          this.state = State.QuoteInQuoted;
          this.count();
        } else {
          if (ch === '\n') this.line++;
          this.append(ch);
        }
        return;
      case State.QuoteInQuoted:
        if (ch === '"') {
          this.state = State.Quoted;
          this.append('"');
        } else if (ch === ',') {
          this.endField();
        } else if (ch === '\n') {
          this.line++;
          this.endRecord();
        } else if (ch === '\r') {
          this.state = State.QuoteThenCr;
        } else {
          this.fail('text_after_quote');
        }
        return;
      case State.CarriageReturn:
        if (ch === '\n') {
          this.line++;
          this.endRecord();
          return;
        }
        // A lone CR is text; the character after it is read as in an unquoted field.
        this.state = State.Unquoted;
        this.append('\r');
        break;
    }
    // FieldStart or Unquoted.
    if (ch === '"') {
      if (this.state === State.FieldStart) {
        this.state = State.Quoted;
        this.count();
      } else {
        this.fail('quote_in_unquoted_field');
      }
    } else if (ch === ',') {
      this.endField();
    } else if (ch === '\n') {
      this.line++;
      this.endRecord();
    } else if (ch === '\r') {
      this.state = State.CarriageReturn;
    } else {
      this.state = State.Unquoted;
      this.append(ch);
    }
  }

  private append(ch: string): void {
    this.field += ch;
    const max = this.caps.cell(this.fields.length);
    if (this.field.length > max) throw new CsvTooLongError(this.recordLine, this.fields.length, max);
    this.count();
  }

  private count(): void {
    if (++this.recordChars > this.caps.record) throw new CsvTooLongError(this.recordLine, null, this.caps.record);
  }

  private endField(): void {
    this.count();
    this.fields.push(this.field);
    this.field = '';
    this.state = State.FieldStart;
  }

  private endRecord(): void {
    const blank = this.fields.length === 0 && this.field === '';
    this.fields.push(this.field);
    if (!blank) this.emit({ kind: 'record', line: this.recordLine, fields: this.fields });
    this.newRecord();
  }

  private newRecord(): void {
    this.fields = [];
    this.field = '';
    this.recordChars = 0;
    this.recordLine = this.line;
    this.state = State.FieldStart;
  }

  private fail(reason: CsvSyntaxReason): void {
    this.emit({ kind: 'error', line: this.recordLine, reason });
    this.state = State.SkipLine;
  }

  private emit(item: CsvItem): void {
    if (this.onItem) this.onItem(item);
    else this.out.push(item);
  }

  private take(): CsvItem[] {
    const items = this.out;
    this.out = [];
    return items;
  }
}

/** Reads a whole CSV text (see CsvReader). */
export function readCsv(input: string): CsvText {
  const reader = new CsvReader();
  const items = [...reader.push(input), ...reader.end()];
  const records: CsvRecord[] = [];
  const errors: CsvSyntaxError[] = [];
  for (const item of items) {
    if (item.kind === 'record') records.push({ line: item.line, fields: item.fields });
    else errors.push({ line: item.line, reason: item.reason });
  }
  return { records, errors };
}
