import { ApiProperty } from '@nestjs/swagger';
import { CardKind, CardStatus } from '../card.entity';
import { IMPORT_PROBLEM_REASONS, ImportProblemFields, ImportProblemReason } from './import-problems';

// The import's format: its caps, columns, and the shapes of its rows and problems (the stages share them).

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
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/**
 * Columns of the export that describe the record in its old project, and the holder's e-mail (set
 * through the card's PATCH or by the storefront): read past, never imported.
 */
export const IGNORED_COLUMNS = ['id', 'batch_id', 'created_at', 'holder_email'] as const;

export const IMPORT_STATUSES = ['unused', 'active', 'banned', 'consumed'] as const;

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
  /** `?stock=true` (with a type): every row becomes an unsold stock card of it (decisions §26). */
  stock?: boolean;
}

/** What a piece of the text completed: rows without a problem of their own, and the problems. */
export interface ImportStep {
  rows: ImportRow[];
  problems: ImportProblem[];
}
