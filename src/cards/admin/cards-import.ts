import { ApiProperty } from '@nestjs/swagger';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { MAX_INT32 } from '../../common/limits';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { CARD_KINDS, CardKind, CardStatus } from '../card.entity';
import { MAX_CARD_USES } from './card-admin.dto';
import { readCsv } from './csv-reader';
import { IMPORT_PROBLEM_REASONS, importProblem, ImportProblemFields, ImportProblemReason } from './import-problems';
import { parseIsoInstant } from './iso-instant';

/** The largest CSV body the import reads (the JSON admin routes stay at 1 MiB). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** The most card rows one import takes. */
export const IMPORT_MAX_ROWS = 100_000;
/** At most this many problems are listed in an answer; `problem_count` has them all. */
export const IMPORT_PROBLEMS_SHOWN = 1000;

/** The columns the import reads; every one but `code` is optional. */
export const IMPORT_COLUMNS = [
  'code', 'kind', 'uses_left', 'duration_seconds', 'device_limit', 'concurrent_limit', 'note', 'status', 'activated_at', 'expires_at',
  'use_count', 'unbind_count', 'last_login_at', 'devices',
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
  @ApiProperty({ enum: IMPORT_PROBLEM_REASONS, enumName: 'ImportProblemReason', description: 'why, as a stable key to translate (import-problems.ts)' })
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

/** What a card gets when its column is absent: the project's settings. */
export interface ImportDefaults {
  deviceLimit: number;
  concurrentLimit: number | null;
}

// C0 controls, DEL and C1 controls, lone surrogates; notes may hold tabs and line breaks (input-rules.ts).
const SINGLE_LINE_BAD = /[\u0000-\u001f\u007f-\u009f\p{Cs}]/u;
const MULTILINE_BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cs}]/u;
/** The export's formula guard (cards-csv.ts, OWASP): a `'` before one of these is taken off again. */
const ESCAPED_FORMULA = /^'[=+\-@\t\r]/;

/**
 * Reads the body of a `text/csv` request straight off the Node stream (Express leaves text/csv
 * unread, Fastify has a pass-through parser for types it does not know), up to `maxBytes`. Past
 * the limit it stops with FILE_TOO_LARGE and drains the rest so the answer reaches the client.
 */
export async function readCsvBody(req: IncomingMessage, maxBytes = IMPORT_MAX_BYTES): Promise<string> {
  const tooLarge = () => new ServiceError(ErrorCode.FILE_TOO_LARGE, `The CSV is larger than ${maxBytes} bytes`, { details: { max_bytes: maxBytes } });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks, size);
  if (!isUtf8(body)) throw new ServiceError(ErrorCode.BAD_REQUEST, 'body is not valid UTF-8', { details: ['body'] });
  return body.toString('utf8');
}

/**
 * Parses and checks a card import (docs/decisions.md, "Card administration"): the header names the
 * columns, every row is checked on its own and against the rows before it (a code twice in the
 * file). Whether a code already exists in the project is for the caller to check (it needs the
 * database). Nothing here throws for a bad row: every problem is collected, so one answer lists them all.
 */
export function parseImport(text: string, defaults: ImportDefaults): ParsedImport {
  const { records, errors } = readCsv(text);
  const problems: ImportProblem[] = errors.map((e) => importProblem(e.line, null, e.reason));
  const [header, ...data] = records;
  const rowCount = Math.max(0, records.length - 1) + errors.length;
  if (rowCount > IMPORT_MAX_ROWS) {
    throw new ServiceError(ErrorCode.FILE_TOO_LARGE, `The CSV has more than ${IMPORT_MAX_ROWS} rows`, { details: { max_rows: IMPORT_MAX_ROWS } });
  }
  if (!header && !errors.length) return { rowCount: 0, rows: [], problems: [importProblem(1, null, 'file_empty')] };
  if (!header || (errors.length && errors[0].line < header.line)) {
    return { rowCount, rows: [], problems: [...problems, importProblem(errors[0].line, null, 'header_unreadable')] };
  }

  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const headerProblems: ImportProblem[] = [];
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) headerProblems.push(importProblem(header.line, name, 'column_twice'));
    seen.add(name);
    if (!(IMPORT_COLUMNS as readonly string[]).includes(name) && !(IGNORED_COLUMNS as readonly string[]).includes(name)) {
      headerProblems.push(importProblem(header.line, name || null, 'column_unknown', { columns: IMPORT_COLUMNS.join(', '), ignored: IGNORED_COLUMNS.join(', ') }));
    }
  }
  if (!seen.has('code')) headerProblems.push(importProblem(header.line, 'code', 'code_column_missing'));
  if (rowCount === 0) {
    headerProblems.push(importProblem(header.line, null, 'no_card_rows'));
  }
  if (headerProblems.length) return { rowCount, rows: [], problems: [...problems, ...headerProblems] };

  const rows: ImportRow[] = [];
  const firstLineOf = new Map<string, number>();
  for (const record of data) {
    if (record.fields.length !== columns.length) {
      problems.push(importProblem(record.line, null, 'field_count', { fields: record.fields.length, columns: columns.length }));
      continue;
    }
    const cells = new Map<string, string>();
    columns.forEach((name, i) => cells.set(name, unescapeFormula(record.fields[i])));
    const before = problems.length;
    const row = readRow(record.line, cells, defaults, (field, reason, params) => problems.push(importProblem(record.line, field, reason, params)));
    if (row.code) {
      const first = firstLineOf.get(row.code);
      if (first !== undefined) problems.push(importProblem(record.line, 'code', 'code_twice', { line: first }));
      else firstLineOf.set(row.code, record.line);
    }
    if (problems.length === before) rows.push(row);
  }
  return { rowCount, rows, problems };
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

  let kind: CardKind = 'time';
  if (has('kind')) {
    if ((CARD_KINDS as readonly string[]).includes(text('kind'))) kind = text('kind') as CardKind;
    else problem('kind', 'one_of', { values: CARD_KINDS.join(', ') });
  }
  let usesLeft: number | null = null;
  if (kind === 'count') {
    if (!has('uses_left')) problem('uses_left', 'uses_left_required');
    else usesLeft = integer('uses_left', 0, MAX_CARD_USES);
  } else if (has('uses_left')) {
    problem('uses_left', 'uses_left_time_card');
  }

  const activatedAt = instant('activated_at');
  const activated = has('activated_at');
  const expiresAt = instant('expires_at');
  if (has('expires_at') && !activated) problem('expires_at', 'expiry_needs_activation');

  let durationSeconds = 0;
  if (has('duration_seconds')) durationSeconds = integer('duration_seconds', 0, MAX_INT32) ?? 0;
  else if (!activated) problem('duration_seconds', 'duration_required');

  const deviceLimit = has('device_limit') ? (integer('device_limit', 1, 1000) ?? defaults.deviceLimit) : defaults.deviceLimit;
  // An empty cell is "unlimited", as the export writes it; an absent column takes the project's setting.
  const concurrentLimit = !cells.has('concurrent_limit') ? defaults.concurrentLimit : has('concurrent_limit') ? integer('concurrent_limit', 1, 1000) : null;

  const note = has('note') ? text('note') : null;
  if (note !== null && [...note].length > MAX_NOTE_LENGTH) problem('note', 'too_long', { max: MAX_NOTE_LENGTH });

  let status: CardStatus = activated ? 'active' : 'unused';
  if (has('status')) {
    const value = text('status');
    if (!(IMPORT_STATUSES as readonly string[]).includes(value)) problem('status', 'one_of', { values: IMPORT_STATUSES.join(', ') });
    else status = value as CardStatus;
  }
  if (status === 'unused' && activated) problem('status', 'unused_but_activated');
  if (status === 'active' && !activated) problem('activated_at', 'activation_required');

  const useCount = integer('use_count', 0, MAX_USE_COUNT) ?? 0;
  const unbindCount = integer('unbind_count', 0, MAX_INT32) ?? 0;
  const lastLoginAt = instant('last_login_at');

  const devices = has('devices') ? text('devices').split(/\r?\n/).filter((m) => m !== '') : [];
  if (devices.length && !activated) problem('devices', 'devices_need_activation');
  if (devices.length > MAX_DEVICES) problem('devices', 'too_many_devices', { max: MAX_DEVICES });
  if (devices.some((m) => [...m].length > MAX_MACHINE_CODE_LENGTH)) problem('devices', 'machine_code_too_long', { max: MAX_MACHINE_CODE_LENGTH });
  if (new Set(devices).size !== devices.length) problem('devices', 'device_twice');

  return {
    line, code, kind, usesLeft, durationSeconds, deviceLimit, concurrentLimit, note, status, activatedAt, expiresAt, useCount, unbindCount, lastLoginAt, devices,
  };
}
