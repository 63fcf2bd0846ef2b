import { ApiProperty } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { JsonLogger } from '../../core/logging/json-logger';
import { CardBatch } from '../card-batch.entity';
import { ImportDefaults, ImportProblem, importReport, ImportRow, parseImport } from './cards-import';
import { importProblem } from './import-problems';

/** Rows per INSERT (each chunk commits on its own). */
export const IMPORT_CHUNK = 1000;
/** A progress line is logged after every this many rows. */
const PROGRESS_EVERY = 10_000;

/** Inserts one chunk of imported cards; a code the project has meanwhile is skipped, and reported by the caller. */
const INSERT_IMPORTED = `
  INSERT INTO cards (project_id, batch_id, code, kind, uses_left, duration_seconds, device_limit, concurrent_limit, note, status,
                     activated_at, expires_at, use_count, unbind_count, last_login_at)
  SELECT $1::uuid, $2::uuid, r.code, r.kind, r.uses_left, r.duration_seconds, r.device_limit, r.concurrent_limit, r.note, r.status,
         r.activated_at, r.expires_at, r.use_count, r.unbind_count, r.last_login_at
  FROM unnest($3::varchar[], $4::varchar[], $5::integer[], $6::integer[], $7::integer[], $8::integer[], $9::varchar[], $10::varchar[],
              $11::timestamptz[], $12::timestamptz[], $13::bigint[], $14::integer[], $15::timestamptz[])
    AS r(code, kind, uses_left, duration_seconds, device_limit, concurrent_limit, note, status,
         activated_at, expires_at, use_count, unbind_count, last_login_at)
  ON CONFLICT (project_id, code) DO NOTHING
  RETURNING id, code`;

/**
 * The bound devices of a chunk's cards, found by code among the rows just inserted. They are bound
 * "now", a microsecond apart in the file's order, so a card lists them in the order they came.
 */
const INSERT_DEVICES = `
  INSERT INTO card_devices (card_id, machine_code, bound_at)
  SELECT c.id, d.machine_code, now() + d.n * interval '1 microsecond'
  FROM unnest($2::varchar[], $3::varchar[]) WITH ORDINALITY AS d(code, machine_code, n)
  JOIN cards c ON c.project_id = $1 AND c.code = d.code AND c.batch_id = $4::uuid`;

/** `?dry_run=true`: the report of every problem, nothing written (200). */
export class ImportReport {
  @ApiProperty({ enum: [true] }) dry_run!: true;
  @ApiProperty({ type: 'integer' }) rows!: number;
  @ApiProperty({ type: 'integer' }) valid!: number;
  @ApiProperty({ type: [ImportProblem], description: 'the first problems (problem_count counts them all)' }) problems!: ImportProblem[];
  @ApiProperty({ type: 'integer' }) problem_count!: number;
}

/** A real import: every row in, under one new batch (201). */
export class ImportDone {
  @ApiProperty({ enum: [false] }) dry_run!: false;
  @ApiProperty({ format: 'uuid' }) batch_id!: string;
  @ApiProperty({ type: 'integer' }) rows!: number;
  @ApiProperty({ type: 'integer' }) imported!: number;
}

export type ImportAnswer = ImportReport | ImportDone;

/**
 * The CSV import of existing codes (docs/decisions.md, "Card administration"). Every row is checked
 * before anything is written: its values, a code twice in the file, a code the project already has.
 * A dry run answers that report. A real import with any problem answers CARD_IMPORT_INVALID with the
 * same report and writes nothing; otherwise the rows go in under a new batch, IMPORT_CHUNK rows per
 * INSERT, each committing on its own (no transaction as long as the import). If a chunk fails (a
 * code taken by a concurrent request since the check, a database fault), every card of the batch
 * is deleted again and the batch with them: all or nothing, without one huge transaction.
 */
export class CardsImporter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: JsonLogger,
  ) {}

  async run(projectId: string, csv: string, defaults: ImportDefaults, dryRun: boolean): Promise<ImportAnswer> {
    const parsed = parseImport(csv, defaults);
    const problems = [...parsed.problems];
    const taken = await this.existingCodes(projectId, parsed.rows.map((r) => r.code));
    const rows = parsed.rows.filter((row) => {
      if (!taken.has(row.code)) return true;
      problems.push(importProblem(row.line, 'code', 'code_exists'));
      return false;
    });
    const report = importReport(parsed.rowCount, rows.length, problems);
    if (dryRun) return { dry_run: true, ...report };
    if (problems.length) throw invalid(report);
    return { dry_run: false, ...(await this.insert(projectId, rows)) };
  }

  private async existingCodes(projectId: string, codes: string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (let i = 0; i < codes.length; i += IMPORT_CHUNK) {
      const found: Array<{ code: string }> = await this.dataSource.query('SELECT code FROM cards WHERE project_id = $1 AND code = ANY($2::varchar[])', [
        projectId,
        codes.slice(i, i + IMPORT_CHUNK),
      ]);
      for (const { code } of found) taken.add(code);
    }
    return taken;
  }

  private async insert(projectId: string, rows: ImportRow[]): Promise<{ batch_id: string; rows: number; imported: number }> {
    const started = Date.now();
    const { identifiers } = await this.dataSource.getRepository(CardBatch).insert({ projectId, idempotencyKey: null, count: rows.length });
    const batchId = identifiers[0].id as string;
    this.logger.entry('info', 'card import started', { project_id: projectId, batch_id: batchId, rows: rows.length });
    let imported = 0;
    try {
      for (let i = 0; i < rows.length; i += IMPORT_CHUNK) {
        const chunk = rows.slice(i, i + IMPORT_CHUNK);
        const inserted = await this.dataSource.transaction(async (em) => {
          const returned: Array<{ id: number; code: string }> = await em.query(INSERT_IMPORTED, [projectId, batchId, ...columnsOf(chunk)]);
          const bound = chunk.flatMap((row) => row.devices.map((machine) => [row.code, machine] as const));
          if (bound.length) await em.query(INSERT_DEVICES, [projectId, bound.map(([code]) => code), bound.map(([, m]) => m), batchId]);
          return returned;
        });
        if (inserted.length < chunk.length) {
          // A concurrent request created some of these codes after the check: report them, undo the import.
          const got = new Set(inserted.map((r) => r.code));
          const lost = chunk.filter((row) => !got.has(row.code)).map((row) => importProblem(row.line, 'code', 'code_exists'));
          throw invalid(importReport(rows.length, rows.length - lost.length, lost));
        }
        const before = imported;
        imported += inserted.length;
        if (Math.floor(imported / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
          this.logger.entry('info', 'card import progress', { project_id: projectId, batch_id: batchId, imported, rows: rows.length });
        }
      }
    } catch (error) {
      await this.undo(projectId, batchId, imported);
      throw error;
    }
    this.logger.entry('info', 'card import done', { project_id: projectId, batch_id: batchId, imported, ms: Date.now() - started });
    return { batch_id: batchId, rows: rows.length, imported };
  }

  /** Deletes what an import that failed part-way wrote, chunk by chunk, then its batch. */
  private async undo(projectId: string, batchId: string, imported: number): Promise<void> {
    this.logger.entry('warn', 'card import failed; deleting its cards', { project_id: projectId, batch_id: batchId, imported });
    for (;;) {
      const result: unknown = await this.dataSource.query(
        'DELETE FROM cards WHERE id IN (SELECT id FROM cards WHERE batch_id = $1 AND project_id = $2 LIMIT $3)',
        [batchId, projectId, IMPORT_CHUNK],
      );
      if (!Array.isArray(result) || result[1] === 0 || typeof result[1] !== 'number') break;
    }
    await this.dataSource.getRepository(CardBatch).delete({ id: batchId });
  }
}

function invalid(report: ReturnType<typeof importReport>): ServiceError {
  return new ServiceError(ErrorCode.CARD_IMPORT_INVALID, undefined, { details: report });
}

/** The chunk as the column arrays of INSERT_IMPORTED ($3-$15). */
function columnsOf(rows: ImportRow[]): unknown[] {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return [
    rows.map((r) => r.code),
    rows.map((r) => r.kind),
    rows.map((r) => r.usesLeft),
    rows.map((r) => r.durationSeconds),
    rows.map((r) => r.deviceLimit),
    rows.map((r) => r.concurrentLimit),
    rows.map((r) => r.note),
    rows.map((r) => r.status),
    rows.map((r) => iso(r.activatedAt)),
    rows.map((r) => iso(r.expiresAt)),
    rows.map((r) => String(r.useCount)),
    rows.map((r) => r.unbindCount),
    rows.map((r) => iso(r.lastLoginAt)),
  ];
}
