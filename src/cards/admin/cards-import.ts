import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { CsvItem, CsvReader, CsvTooLongError } from './csv-reader';
import {
  IGNORED_COLUMNS,
  IMPORT_COLUMNS,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_DEVICES_CHARS,
  IMPORT_MAX_ROW_CHARS,
  IMPORT_MAX_ROWS,
  IMPORT_PROBLEMS_SHOWN,
  ImportDefaults,
  ImportProblem,
  ImportStep,
  ParsedImport,
} from './import-format';
import { importProblem } from './import-problems';
import { readRow, unescapeFormula } from './import-row';

/**
 * Checks a card import as it is read (docs/decisions.md, "Card administration"): `push` the text
 * as it arrives, `end` at its end; each hands back the rows and problems completed so far, so only
 * one row and the codes seen so far (for a code twice in the file) are held, never the file. The
 * header names the columns, every row is checked on its own and against the rows before it.
 * Whether a code already exists in the project is for the caller to check (it needs the database).
 * Nothing here throws for a bad row: every problem is collected, so one answer lists them all. A
 * file of more than IMPORT_MAX_ROWS rows throws FILE_TOO_LARGE, a cell or row past its cap
 * CARD_IMPORT_INVALID naming its line, as soon as they are read.
 */
export class ImportParser {
  // Items are taken as they complete, so the header's caps hold from the next character on.
  private readonly reader = new CsvReader({ cell: () => IMPORT_MAX_CELL_CHARS, record: IMPORT_MAX_ROW_CHARS }, (item) =>
    this.item(item),
  );
  private current: ImportStep = { rows: [], problems: [] };
  private columns: string[] | null = null;
  private headerLine = 1;
  /** The header could not be used: the rest of the file is only counted and its syntax errors listed. */
  private headerFailed = false;
  private records = 0;
  private errors = 0;
  private readonly firstLineOf = new Map<string, number>();

  constructor(private readonly defaults: ImportDefaults) {}

  /** Card rows in the file so far (the header and blank lines not counted), readable or not. */
  get rowCount(): number {
    return Math.max(0, this.records - 1) + this.errors;
  }

  push(text: string): ImportStep {
    return this.step(() => this.reader.push(text));
  }

  end(): ImportStep {
    const step = this.step(() => this.reader.end());
    if (!this.records && !this.errors) step.problems.push(importProblem(1, null, 'file_empty'));
    else if (this.columns && this.rowCount === 0) step.problems.push(importProblem(this.headerLine, null, 'no_card_rows'));
    return step;
  }

  private step(read: () => unknown): ImportStep {
    const step: ImportStep = { rows: [], problems: [] };
    this.current = step;
    try {
      read();
    } catch (error) {
      if (error instanceof CsvTooLongError) throw this.tooLong(error);
      throw error;
    }
    return step;
  }

  private item(item: CsvItem): void {
    const step = this.current;
    if (item.kind === 'error') this.errors++;
    else this.records++;
    if (this.rowCount > IMPORT_MAX_ROWS) {
      throw new ServiceError(ErrorCode.FILE_TOO_LARGE, `The CSV has more than ${IMPORT_MAX_ROWS} rows`, {
        details: { max_rows: IMPORT_MAX_ROWS },
      });
    }
    if (item.kind === 'error') {
      step.problems.push(importProblem(item.line, null, item.reason));
      if (!this.columns && !this.headerFailed) {
        this.headerFailed = true;
        step.problems.push(importProblem(item.line, null, 'header_unreadable'));
      }
    } else if (!this.columns && !this.headerFailed) {
      this.header(item.line, item.fields, step.problems);
    } else if (!this.headerFailed) {
      this.row(item.line, item.fields, step);
    }
  }

  private header(line: number, fields: string[], problems: ImportProblem[]): void {
    const columns = fields.map((name) => name.trim().toLowerCase());
    this.columns = columns;
    this.headerLine = line;
    const before = problems.length;
    const seen = new Set<string>();
    for (const name of columns) {
      if (seen.has(name)) problems.push(importProblem(line, name, 'column_twice'));
      seen.add(name);
      if (!(IMPORT_COLUMNS as readonly string[]).includes(name) && !(IGNORED_COLUMNS as readonly string[]).includes(name)) {
        problems.push(
          importProblem(line, name || null, 'column_unknown', {
            columns: IMPORT_COLUMNS.join(', '),
            ignored: IGNORED_COLUMNS.join(', '),
          }),
        );
      }
    }
    if (!seen.has('code')) problems.push(importProblem(line, 'code', 'code_column_missing'));
    if (problems.length > before) this.headerFailed = true;
    const devices = columns.indexOf('devices');
    this.reader.setCaps({
      cell: (i) => (i === devices ? IMPORT_MAX_DEVICES_CHARS : IMPORT_MAX_CELL_CHARS),
      record: IMPORT_MAX_ROW_CHARS + (devices >= 0 ? IMPORT_MAX_DEVICES_CHARS : 0),
    });
  }

  private row(line: number, fields: string[], step: ImportStep): void {
    const columns = this.columns!;
    const problems = step.problems;
    if (fields.length !== columns.length) {
      problems.push(importProblem(line, null, 'field_count', { fields: fields.length, columns: columns.length }));
      return;
    }
    const cells = new Map<string, string>();
    columns.forEach((name, i) => cells.set(name, unescapeFormula(fields[i])));
    const before = problems.length;
    const row = readRow(line, cells, this.defaults, (field, reason, params) =>
      problems.push(importProblem(line, field, reason, params)),
    );
    if (row.code) {
      const first = this.firstLineOf.get(row.code);
      if (first !== undefined) problems.push(importProblem(line, 'code', 'code_twice', { line: first }));
      else this.firstLineOf.set(row.code, line);
    }
    if (problems.length === before) step.rows.push(row);
  }

  /** A cell or row past its cap: the import stops there, with a 400 naming the line and column. */
  private tooLong(error: CsvTooLongError): ServiceError {
    const field = error.field === null ? null : (this.columns?.[error.field] ?? `column ${error.field + 1}`);
    const problem = importProblem(error.line, field, error.field === null ? 'row_too_long' : 'cell_too_long', { max: error.max });
    return new ServiceError(
      ErrorCode.CARD_IMPORT_INVALID,
      `line ${error.line}${field === null ? '' : `, ${field}`}: ${problem.message}; nothing was imported`,
      {
        details: { rows: this.rowCount, valid: 0, problems: [problem], problem_count: 1 },
      },
    );
  }
}

/** Checks a whole CSV text at once (ImportParser; for tests and small texts). */
export function parseImport(text: string, defaults: ImportDefaults): ParsedImport {
  const parser = new ImportParser(defaults);
  const first = parser.push(text);
  const last = parser.end();
  const problems = [...first.problems, ...last.problems].sort((a, b) => a.line - b.line);
  return { rowCount: parser.rowCount, rows: [...first.rows, ...last.rows], problems };
}

/** The answer's report: `problems` sorted by line, the first IMPORT_PROBLEMS_SHOWN of them. */
export function importReport(rowCount: number, valid: number, problems: ImportProblem[]) {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  return { rows: rowCount, valid, problems: sorted.slice(0, IMPORT_PROBLEMS_SHOWN), problem_count: sorted.length };
}
