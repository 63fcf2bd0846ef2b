import { ApiProperty } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import { TextDecoder } from 'node:util';
import { DataSource } from 'typeorm';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { JsonLogger } from '../../core/logging/json-logger';
import { CardBatch } from '../card-batch.entity';
import { IMPORT_MAX_BYTES, IMPORT_PROBLEMS_SHOWN, ImportDefaults, ImportParser, ImportProblem, ImportRow } from './cards-import';
import { importProblem } from './import-problems';

/**
 * Rows per statement: a code check, a staging INSERT, a move into `cards`. Small enough that one
 * statement holds the embedded database (one connection, in the service's own thread) for some
 * milliseconds only, so the logins of every other project pass between two of them.
 */
export const IMPORT_CHUNK = 100;
/**
 * After each chunk the import rests as long as the chunk's statements took (at most this long):
 * with one connection (the embedded database) a login's statements would otherwise queue behind
 * one import statement each, and with many (a PostgreSQL server) the import takes at most half of
 * the database's time. An import takes about twice as long; no other project waits for it.
 */
const MAX_REST_MS = 250;
/** Text handed to the parser at once, between two turns of the event loop. */
const TEXT_SLICE = 64 * 1024;
/** A progress line is logged after every this many rows. */
const PROGRESS_EVERY = 10_000;
/** How often a running import says it is alive (`card_batches.heartbeat_at`). */
export const IMPORT_HEARTBEAT_MS = 10_000;
/** A batch not yet live whose heartbeat is older than this was left by a process that died. */
export const IMPORT_STALE_MS = 120_000;

/** Imports (dry runs included) running at once for one admin account, and in one service process. */
export const IMPORTS_PER_AUTHOR = 2;
export const IMPORTS_PER_PROCESS = 4;

/** Stages one chunk of checked rows; a code another running import has staged is skipped and reported. */
const STAGE_ROWS = `
  INSERT INTO card_import_rows (batch_id, project_id, line, code, kind, uses_left, duration_seconds, device_limit, concurrent_limit, note, status,
                                activated_at, expires_at, use_count, unbind_count, last_login_at, devices)
  SELECT $1::uuid, $2::uuid, r.line, r.code, r.kind, r.uses_left, r.duration_seconds, r.device_limit, r.concurrent_limit, r.note, r.status,
         r.activated_at, r.expires_at, r.use_count, r.unbind_count, r.last_login_at,
         COALESCE((SELECT array_agg(d.m ORDER BY d.n) FROM json_array_elements_text(r.devices::json) WITH ORDINALITY AS d(m, n)), '{}')
  FROM unnest($3::integer[], $4::varchar[], $5::varchar[], $6::integer[], $7::integer[], $8::integer[], $9::integer[], $10::varchar[], $11::varchar[],
              $12::timestamptz[], $13::timestamptz[], $14::bigint[], $15::integer[], $16::timestamptz[], $17::text[])
    AS r(line, code, kind, uses_left, duration_seconds, device_limit, concurrent_limit, note, status,
         activated_at, expires_at, use_count, unbind_count, last_login_at, devices)
  ON CONFLICT (project_id, code) DO NOTHING
  RETURNING line`;

/**
 * Moves the first rows of a staged batch into `cards` with their devices, in one statement (so in
 * one transaction): a code the project has meanwhile is skipped and its line returned. Devices are
 * bound "now", a microsecond apart in the file's order, so a card lists them in the order they came.
 */
const PUBLISH_ROWS = `
  WITH moved AS (
    DELETE FROM card_import_rows
    WHERE batch_id = $1 AND line IN (SELECT line FROM card_import_rows WHERE batch_id = $1 ORDER BY line LIMIT $2)
    RETURNING *
  ), inserted AS (
    INSERT INTO cards (project_id, batch_id, code, kind, uses_left, duration_seconds, device_limit, concurrent_limit, note, status,
                       activated_at, expires_at, use_count, unbind_count, last_login_at, card_type_id)
    SELECT project_id, batch_id, code, kind, uses_left, duration_seconds, device_limit, concurrent_limit, note, status,
           activated_at, expires_at, use_count, unbind_count, last_login_at, (SELECT b.card_type_id FROM card_batches b WHERE b.id = $1)
    FROM moved ORDER BY line
    ON CONFLICT (project_id, code) DO NOTHING
    RETURNING id, code
  ), bound AS (
    INSERT INTO card_devices (card_id, machine_code, bound_at)
    SELECT i.id, d.machine_code, now() + d.n * interval '1 microsecond'
    FROM inserted i JOIN moved m ON m.code = i.code CROSS JOIN LATERAL unnest(m.devices) WITH ORDINALITY AS d(machine_code, n)
  )
  SELECT (SELECT count(*) FROM moved)::integer AS moved, (SELECT count(*) FROM inserted)::integer AS inserted,
         ARRAY(SELECT m.line FROM moved m WHERE NOT EXISTS (SELECT 1 FROM inserted i WHERE i.code = m.code) ORDER BY m.line) AS lost`;

/** `?dry_run=true`: the report of every problem, nothing written (200). */
export class ImportReport {
  @ApiProperty({ enum: [true] }) dry_run!: true;
  @ApiProperty({ type: 'integer' }) rows!: number;
  @ApiProperty({ type: 'integer' }) valid!: number;
  @ApiProperty({ type: [ImportProblem], description: 'the first problems (problem_count counts them all)' })
  problems!: ImportProblem[];
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

/** The problems an answer lists: the first IMPORT_PROBLEMS_SHOWN by line, and how many there are. */
class ProblemLog {
  readonly shown: ImportProblem[] = [];
  count = 0;

  /** Problems of lines after every line added before (their order among themselves is free). */
  add(problems: ImportProblem[]): void {
    this.count += problems.length;
    if (this.shown.length >= IMPORT_PROBLEMS_SHOWN) return;
    const sorted = [...problems].sort((a, b) => a.line - b.line);
    this.shown.push(...sorted.slice(0, IMPORT_PROBLEMS_SHOWN - this.shown.length));
  }

  report(rows: number, valid: number) {
    return { rows, valid, problems: this.shown, problem_count: this.count };
  }
}

/**
 * How many imports run at once, per admin account and in this process: each holds a bounded amount
 * of memory (one row, one chunk, the codes of its file), so these bound the memory of them all.
 * Counts live only while imports run; an account's entry goes with its last import.
 */
export class ImportSlots {
  private readonly byAuthor = new Map<string, number>();
  private running = 0;

  constructor(
    private readonly perAuthor = IMPORTS_PER_AUTHOR,
    private readonly perProcess = IMPORTS_PER_PROCESS,
  ) {}

  /** A slot, or RATE_LIMITED; the returned function gives it back (once). */
  take(authorId: string): () => void {
    const mine = this.byAuthor.get(authorId) ?? 0;
    if (mine >= this.perAuthor || this.running >= this.perProcess) {
      const scope = mine >= this.perAuthor ? 'author' : 'service';
      throw new ServiceError(
        ErrorCode.RATE_LIMITED,
        scope === 'author'
          ? `You already have ${mine} card imports running (at most ${this.perAuthor} at once); retry when one has finished`
          : `The service is running ${this.running} card imports (at most ${this.perProcess} at once); retry in a moment`,
        {
          details: {
            scope,
            running: scope === 'author' ? mine : this.running,
            max: scope === 'author' ? this.perAuthor : this.perProcess,
          },
        },
      );
    }
    this.byAuthor.set(authorId, mine + 1);
    this.running++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      const left = (this.byAuthor.get(authorId) ?? 1) - 1;
      if (left > 0) this.byAuthor.set(authorId, left);
      else this.byAuthor.delete(authorId);
    };
  }
}

/**
 * The CSV import of existing codes (docs/decisions.md, "Card administration"), one recoverable job.
 * The body is read as it arrives, a slice at a time with a turn of the event loop between slices,
 * and checked row by row: its values, a code twice in the file, a code the project already has,
 * a cell or row past its cap (refused at once, unread rest drained). A dry run answers the report
 * and writes nothing. A real import stages its checked rows under a `pending` batch as it goes
 * (`card_import_rows`: no login, list or export sees them); a problem anywhere answers
 * CARD_IMPORT_INVALID with the report and deletes what was staged. Otherwise the batch turns
 * `publishing` and its rows move into `cards` IMPORT_CHUNK at a time, then it is `live`. A process
 * that dies leaves a batch whose heartbeat goes stale: `sweep` deletes a pending one and finishes
 * a publishing one, so no half import stays. A code created by another request between the check
 * and the move undoes the import (all or nothing).
 */
export class CardsImporter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: JsonLogger,
  ) {}

  async run(projectId: string, body: IncomingMessage, defaults: ImportDefaults, dryRun: boolean): Promise<ImportAnswer> {
    const parser = new ImportParser(defaults);
    const log = new ProblemLog();
    let valid = 0;
    let rows: ImportRow[] = [];
    let problems: ImportProblem[] = [];
    let batchId: string | null = null;
    let staged = 0;
    let heartbeat: NodeJS.Timeout | undefined;
    let lostBatch = false;

    // The rows and problems read since the last flush: codes checked against the project, rows staged.
    const flush = async () => {
      const chunk = rows;
      const chunkProblems = problems;
      rows = [];
      problems = [];
      const started = performance.now();
      const taken = await this.existingCodes(
        projectId,
        chunk.map((r) => r.code),
      );
      let fresh = chunk.filter((row) => {
        if (!taken.has(row.code)) return true;
        chunkProblems.push(importProblem(row.line, 'code', 'code_exists'));
        return false;
      });
      if (!dryRun && fresh.length && log.count === 0 && chunkProblems.length === 0) {
        if (lostBatch) throw new ServiceError(ErrorCode.SYSTEM_ERROR, 'the import was swept as abandoned');
        batchId ??= await this.startBatch(projectId, defaults.type?.id ?? null);
        heartbeat ??= setInterval(() => {
          void this.beat(batchId!).then(
            (alive) => (lostBatch ||= !alive),
            () => undefined,
          );
        }, IMPORT_HEARTBEAT_MS).unref();
        const stagedLines: Array<{ line: number }> = await this.dataSource.query(STAGE_ROWS, [
          batchId,
          projectId,
          ...columnsOf(fresh),
        ]);
        if (stagedLines.length < fresh.length) {
          // Another import running into this project has staged some of these codes.
          const got = new Set(stagedLines.map((r) => r.line));
          fresh = fresh.filter((row) => {
            if (got.has(row.line)) return true;
            chunkProblems.push(importProblem(row.line, 'code', 'code_exists'));
            return false;
          });
        }
        staged += fresh.length;
      }
      valid += fresh.length;
      log.add(chunkProblems);
      await rest(started);
    };
    const take = async (step: { rows: ImportRow[]; problems: ImportProblem[] }) => {
      rows.push(...step.rows);
      problems.push(...step.problems);
      if (rows.length >= IMPORT_CHUNK || problems.length >= IMPORT_CHUNK) await flush();
    };

    try {
      try {
        const decoder = new TextDecoder('utf-8', { fatal: true });
        let size = 0;
        const declared = Number(body.headers['content-length']);
        if (Number.isFinite(declared) && declared > IMPORT_MAX_BYTES) throw tooLarge();
        // Not `for await (… of body)`: leaving that loop early destroys the socket, and the answer with it.
        for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > IMPORT_MAX_BYTES) throw tooLarge();
          const text = decode(decoder, chunk, true);
          for (let i = 0; i < text.length; i += TEXT_SLICE) {
            await take(parser.push(text.slice(i, i + TEXT_SLICE)));
            await yieldToLoop();
          }
        }
        await take(parser.push(decode(decoder, undefined, false)));
        await take(parser.end());
        await flush();
      } catch (error) {
        body.resume(); // what is left of the body is read past, unbuffered, so the answer reaches the client
        throw error;
      }
      const report = log.report(parser.rowCount, valid);
      if (dryRun) return { dry_run: true, ...report };
      if (log.count) throw invalid(report);
      if (lostBatch) throw new ServiceError(ErrorCode.SYSTEM_ERROR, 'the import was swept as abandoned');
      if (!batchId) throw invalid(report); // unreachable: a file without problems has rows
      const done = await this.publish(projectId, batchId, staged, true);
      batchId = null; // published: nothing to clean up
      return { dry_run: false, batch_id: done.batchId, rows: staged, imported: done.imported };
    } finally {
      clearInterval(heartbeat);
      if (batchId)
        await this.discard(projectId, batchId).catch((error: unknown) =>
          this.logger.entry('error', 'card import cleanup failed', { batch_id: batchId, error: String(error) }),
        );
    }
  }

  /**
   * Deletes the pending batches of dead processes with their staged rows, and finishes their
   * publishing ones (docs/decisions.md): run at start and periodically. Each batch is claimed by
   * renewing its heartbeat, so two instances never handle the same one.
   */
  async sweep(): Promise<{ discarded: number; finished: number }> {
    // An UPDATE answers [rows, count].
    const [stale]: [Array<{ id: string; project_id: string; status: string; count: number }>] = await this.dataSource.query(
      `UPDATE card_batches SET heartbeat_at = now()
       WHERE status <> 'live' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => $1))
       RETURNING id, project_id, status, count`,
      [IMPORT_STALE_MS / 1000],
    );
    let discarded = 0;
    let finished = 0;
    for (const batch of stale) {
      if (batch.status === 'pending') {
        await this.discard(batch.project_id, batch.id);
        this.logger.entry('warn', 'card import abandoned by a stopped process: its staged rows are deleted', {
          project_id: batch.project_id,
          batch_id: batch.id,
        });
        discarded++;
      } else {
        const done = await this.publish(batch.project_id, batch.id, batch.count, false);
        this.logger.entry('warn', 'card import left by a stopped process finished', {
          project_id: batch.project_id,
          batch_id: batch.id,
          imported: done.imported,
        });
        finished++;
      }
    }
    return { discarded, finished };
  }

  private async existingCodes(projectId: string, codes: string[]): Promise<Set<string>> {
    if (!codes.length) return new Set();
    const found: Array<{ code: string }> = await this.dataSource.query(
      'SELECT code FROM cards WHERE project_id = $1 AND code = ANY($2::varchar[])',
      [projectId, codes],
    );
    return new Set(found.map((r) => r.code));
  }

  /** The import's batch; with a card type, every card it publishes keeps the type (PUBLISH_ROWS reads it here). */
  private async startBatch(projectId: string, cardTypeId: number | null): Promise<string> {
    const { identifiers } = await this.dataSource
      .getRepository(CardBatch)
      .insert({ projectId, idempotencyKey: null, count: 0, status: 'pending', heartbeatAt: () => 'now()', cardTypeId });
    const batchId = identifiers[0].id as string;
    this.logger.entry('info', 'card import started', { project_id: projectId, batch_id: batchId });
    return batchId;
  }

  /** Renews the heartbeat; false when the batch is gone (swept as abandoned). */
  private async beat(batchId: string): Promise<boolean> {
    const result: unknown = await this.dataSource.query(
      `UPDATE card_batches SET heartbeat_at = now() WHERE id = $1 AND status <> 'live'`,
      [batchId],
    );
    return !(Array.isArray(result) && result[1] === 0);
  }

  /**
   * Moves a staged batch into `cards` chunk by chunk, then marks it live. `strict` (the request
   * that made it waits): a code the project got meanwhile undoes the import and answers the lines.
   * Otherwise (finishing a dead process's import) such a row is left out and logged.
   */
  private async publish(
    projectId: string,
    batchId: string,
    rows: number,
    strict: boolean,
  ): Promise<{ batchId: string; imported: number }> {
    const started = Date.now();
    await this.dataSource.query(`UPDATE card_batches SET status = 'publishing', count = $2, heartbeat_at = now() WHERE id = $1`, [
      batchId,
      rows,
    ]);
    let imported = 0;
    const skipped: number[] = [];
    for (;;) {
      const started = performance.now();
      const [step]: Array<{ moved: number; inserted: number; lost: number[] }> = await this.dataSource.query(PUBLISH_ROWS, [
        batchId,
        IMPORT_CHUNK,
      ]);
      if (step.lost.length) {
        if (strict) {
          const lost = step.lost.map((line) => importProblem(line, 'code', 'code_exists'));
          this.logger.entry('warn', 'card import failed; deleting its cards', {
            project_id: projectId,
            batch_id: batchId,
            imported: imported + step.inserted,
          });
          await this.discard(projectId, batchId);
          throw invalid({
            rows,
            valid: rows - lost.length,
            problems: lost.slice(0, IMPORT_PROBLEMS_SHOWN),
            problem_count: lost.length,
          });
        }
        skipped.push(...step.lost);
      }
      const before = imported;
      imported += step.inserted;
      if (Math.floor(imported / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
        this.logger.entry('info', 'card import progress', { project_id: projectId, batch_id: batchId, imported, rows });
        await this.beat(batchId);
      }
      if (step.moved < IMPORT_CHUNK) break;
      await rest(started);
    }
    await this.dataSource.query(`UPDATE card_batches SET status = 'live', count = $2, heartbeat_at = NULL WHERE id = $1`, [
      batchId,
      imported,
    ]);
    if (skipped.length)
      this.logger.entry('warn', 'card import left out codes the project got meanwhile', {
        project_id: projectId,
        batch_id: batchId,
        lines: skipped.slice(0, 100),
      });
    this.logger.entry('info', 'card import done', {
      project_id: projectId,
      batch_id: batchId,
      imported,
      ms: Date.now() - started,
    });
    return { batchId, imported };
  }

  /** Deletes an unfinished batch: its staged rows and any cards already moved, chunk by chunk, then the batch. */
  private async discard(projectId: string, batchId: string): Promise<void> {
    const deleteAll = async (sql: string) => {
      for (;;) {
        const started = performance.now();
        const result: unknown = await this.dataSource.query(sql, [batchId, projectId, IMPORT_CHUNK * 2]);
        if (!Array.isArray(result) || typeof result[1] !== 'number' || result[1] === 0) return;
        await rest(started);
      }
    };
    await deleteAll(
      'DELETE FROM card_import_rows WHERE batch_id = $1 AND project_id = $2 AND line IN (SELECT line FROM card_import_rows WHERE batch_id = $1 LIMIT $3)',
    );
    await deleteAll('DELETE FROM cards WHERE id IN (SELECT id FROM cards WHERE batch_id = $1 AND project_id = $2 LIMIT $3)');
    await this.dataSource.getRepository(CardBatch).delete({ id: batchId });
  }
}

/** Rests as long as the work since `started` took (see MAX_REST_MS). */
async function rest(started: number): Promise<void> {
  await sleep(Math.min(MAX_REST_MS, Math.max(1, performance.now() - started)));
}

function tooLarge(): ServiceError {
  return new ServiceError(ErrorCode.FILE_TOO_LARGE, `The CSV is larger than ${IMPORT_MAX_BYTES} bytes`, {
    details: { max_bytes: IMPORT_MAX_BYTES },
  });
}

function decode(decoder: TextDecoder, chunk: Buffer | undefined, stream: boolean): string {
  try {
    return decoder.decode(chunk, { stream });
  } catch {
    throw new ServiceError(ErrorCode.BAD_REQUEST, 'body is not valid UTF-8', { details: ['body'] });
  }
}

function invalid(report: { rows: number; valid: number; problems: ImportProblem[]; problem_count: number }): ServiceError {
  return new ServiceError(ErrorCode.CARD_IMPORT_INVALID, undefined, { details: report });
}

/** The chunk as the column arrays of STAGE_ROWS ($3-$17); devices as JSON text (PostgreSQL has no arrays of arrays of varying length). */
function columnsOf(rows: ImportRow[]): unknown[] {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return [
    rows.map((r) => r.line),
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
    rows.map((r) => JSON.stringify(r.devices)),
  ];
}
