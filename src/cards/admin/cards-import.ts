import { ApiProperty } from '@nestjs/swagger';
import { MAX_INT32 } from '../../common/limits';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { CARD_KINDS, CardKind, CardStatus } from '../card.entity';
import { MAX_CARD_USES } from './card-admin.dto';
import { CsvItem, CsvReader, CsvTooLongError } from './csv-reader';
import { IMPORT_PROBLEM_REASONS, importProblem, ImportProblemFields, ImportProblemReason } from './import-problems';
import { parseIsoInstant } from './iso-instant';

/** The largest CSV body the import reads (the JSON admin routes stay at 1 MiB). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** The most card rows one import takes. */
export const IMPORT_MAX_ROWS = 100_000;
/** At most this many problems are listed in an answer; `problem_count` has them all. */
export const IMPORT_PROBLEMS_SHOWN = 1000;
/**
 * The longest cell, in characters, of every column but `devices`: far above any valid value (a code
 * has 64, a note 200), low enough that a huge cell is refused after reading 4 KiB of it.
 */
export const IMPORT_MAX_CELL_CHARS = 4096;
/** The `devices` cell: room for the most devices a card can have (1000) with the longest machine codes, one per line. */
export const IMPORT_MAX_DEVICES_CHARS = 262_144;
/** A row, its separators and quotes included, besides its `devices` cell. */
export const IMPORT_MAX_ROW_CHARS = 16_384;

/** The columns the import reads; every one but `code` is optional. */
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
type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Columns of the export that describe the record in its old project: read past, never imported. */
export const IGNORED_COLUMNS = ['id', 'batch_id', 'created_at'] as const;

export const IMPORT_STATUSES = ['unused', 'active', 'banned', 'consumed'] as const;

const MAX_CODE_LENGTH = 64;
const MAX_NOTE_LENGTH = 200;
const MAX_MACHINE_CODE_LENGTH = 128;
const MAX_DEVICES = 1000;
const MAX_USE_COUNT = Number.MAX_SAFE_INTEGER;

/** One problem of an import: the file's line (1 = the header), the column or null for the whole line. */
export class ImportProblem implements ImportProblemFields {
  @ApiProperty({ type: 'integer' }) line!: number;
  @ApiProperty({ type: String, nullable: true }) field!: string | null;
  @ApiProperty({
    enum: IMPORT_PROBLEM_REASONS,
    enumName: 'ImportProblemReason',
    description: 'why, as a stable key to translate (import-problems.ts)',
  })
  reason!: ImportProblemReason;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    description: 'the values the reason names (min, max, line, values, …)',
  })
  params!: Record<string, string | number>;
  @ApiProperty({ description: 'the same in English' }) message!: string;
}

/** A row ready to insert. */
export interface ImportRow {
  line: number;
  code: string;
  kind: CardKind;
  usesLeft: number | null;
  durationSeconds: number;
  deviceLimit: number;
  concurrentLimit: number | null;
  note: string | null;
  status: CardStatus;
  activatedAt: Date | null;
  expiresAt: Date | null;
  useCount: number;
  unbindCount: number;
  lastLoginAt: Date | null;
  devices: string[];
}

export interface ParsedImport {
  /** Card rows in the file (the header and blank lines not counted), readable or not. */
  rowCount: number;
  /** The rows without a problem of their own. */
  rows: ImportRow[];
  problems: ImportProblem[];
}

/** What a card gets when its column is absent: the project's settings, or the card type's the import names. */
export interface ImportDefaults {
  deviceLimit: number;
  concurrentLimit: number | null;
  /** `?card_type_id=`: every row is a card of this type (decisions §19); its kind is the only one allowed. */
  type?: { id: number; kind: CardKind; uses: number | null; durationSeconds: number };
}

// C0 controls, DEL and C1 controls, lone surrogates; notes may hold tabs and line breaks (input-rules.ts).
const SINGLE_LINE_BAD = /[\u0000-\u001f\u007f-\u009f\p{Cs}]/u;
const MULTILINE_BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cs}]/u;
/** The export's formula guard (cards-csv.ts, OWASP): a `'` before one of these is taken off again. */
const ESCAPED_FORMULA = /^'[=+\-@\t\r]/;

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

/** What a piece of the text completed: rows without a problem of their own, and the problems. */
export interface ImportStep {
  rows: ImportRow[];
  problems: ImportProblem[];
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

function unescapeFormula(value: string): string {
  return ESCAPED_FORMULA.test(value) ? value.slice(1) : value;
}

/** Reads one row's cells; `problem` is called for each bad value. */
function readRow(
  line: number,
  cells: Map<string, string>,
  defaults: ImportDefaults,
  problem: (field: ImportColumn, reason: ImportProblemReason, params?: Record<string, string | number>) => void,
): ImportRow {
  const has = (name: ImportColumn) => cells.has(name) && cells.get(name) !== '';
  const text = (name: ImportColumn) => cells.get(name) ?? '';
  for (const [name, value] of cells) {
    const bad = name === 'note' || name === 'devices' ? MULTILINE_BAD : SINGLE_LINE_BAD;
    if (bad.test(value)) problem(name as ImportColumn, 'control_character');
  }
  const integer = (name: ImportColumn, min: number, max: number): number | null => {
    if (!has(name)) return null;
    const value = text(name);
    if (!/^\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max) {
      problem(name, 'whole_number', { min, max });
      return null;
    }
    return Number(value);
  };
  const instant = (name: ImportColumn): Date | null => {
    if (!has(name)) return null;
    const date = parseIsoInstant(text(name));
    if (!date) problem(name, 'iso_time');
    return date;
  };

  const code = text('code');
  if (!code) problem('code', 'required');
  else if ([...code].length > MAX_CODE_LENGTH) problem('code', 'too_long', { max: MAX_CODE_LENGTH });
  else if (code.trim() !== code) problem('code', 'code_spaces');

  const kinds: readonly string[] = defaults.type ? [defaults.type.kind] : CARD_KINDS;
  let kind: CardKind = defaults.type?.kind ?? 'time';
  if (has('kind')) {
    if (kinds.includes(text('kind'))) kind = text('kind') as CardKind;
    else problem('kind', 'one_of', { values: kinds.join(', ') });
  }
  let usesLeft: number | null = null;
  if (kind === 'count') {
    if (!has('uses_left') && defaults.type?.uses != null) usesLeft = defaults.type.uses;
    else if (!has('uses_left')) problem('uses_left', 'uses_left_required');
    else usesLeft = integer('uses_left', 0, MAX_CARD_USES);
  } else if (has('uses_left')) {
    problem('uses_left', 'uses_left_time_card');
  }

  const activatedAt = instant('activated_at');
  const activated = has('activated_at');
  const expiresAt = instant('expires_at');
  if (has('expires_at') && !activated) problem('expires_at', 'expiry_needs_activation');

  let durationSeconds = defaults.type?.durationSeconds ?? 0;
  if (has('duration_seconds')) durationSeconds = integer('duration_seconds', 0, MAX_INT32) ?? 0;
  else if (!activated && !defaults.type) problem('duration_seconds', 'duration_required');

  const deviceLimit = has('device_limit') ? (integer('device_limit', 1, 1000) ?? defaults.deviceLimit) : defaults.deviceLimit;
  // An empty cell is "unlimited", as the export writes it; an absent column takes the project's setting.
  const concurrentLimit = !cells.has('concurrent_limit')
    ? defaults.concurrentLimit
    : has('concurrent_limit')
      ? integer('concurrent_limit', 1, 1000)
      : null;

  const note = has('note') ? text('note') : null;
  if (note !== null && [...note].length > MAX_NOTE_LENGTH) problem('note', 'too_long', { max: MAX_NOTE_LENGTH });

  let status: CardStatus = activated ? 'active' : 'unused';
  if (has('status')) {
    const value = text('status');
    if (!(IMPORT_STATUSES as readonly string[]).includes(value))
      problem('status', 'one_of', { values: IMPORT_STATUSES.join(', ') });
    else status = value as CardStatus;
  }
  if (status === 'unused' && activated) problem('status', 'unused_but_activated');
  if (status === 'active' && !activated) problem('activated_at', 'activation_required');

  const useCount = integer('use_count', 0, MAX_USE_COUNT) ?? 0;
  const unbindCount = integer('unbind_count', 0, MAX_INT32) ?? 0;
  const lastLoginAt = instant('last_login_at');

  const devices = has('devices')
    ? text('devices')
        .split(/\r?\n/)
        .filter((m) => m !== '')
    : [];
  if (devices.length && !activated) problem('devices', 'devices_need_activation');
  if (devices.length > MAX_DEVICES) problem('devices', 'too_many_devices', { max: MAX_DEVICES });
  if (devices.some((m) => [...m].length > MAX_MACHINE_CODE_LENGTH))
    problem('devices', 'machine_code_too_long', { max: MAX_MACHINE_CODE_LENGTH });
  if (new Set(devices).size !== devices.length) problem('devices', 'device_twice');
  // More bound devices than the card admits would let more machines in than it allows: the row is refused, not trimmed.
  if (devices.length > deviceLimit && devices.length <= MAX_DEVICES)
    problem('devices', 'devices_over_limit', { max: deviceLimit });

  return {
    line,
    code,
    kind,
    usesLeft,
    durationSeconds,
    deviceLimit,
    concurrentLimit,
    note,
    status,
    activatedAt,
    expiresAt,
    useCount,
    unbindCount,
    lastLoginAt,
    devices,
  };
}
