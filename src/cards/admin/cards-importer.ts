import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { TextDecoder } from 'node:util';
import { DataSource } from 'typeorm';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { JsonLogger } from '../../core/logging/json-logger';
import { ImportParser } from './cards-import';
import { ImportAnswer, invalid, ProblemLog } from './import-answers';
import { IMPORT_HEARTBEAT_MS, rest } from './batch-pacing';
import { CardBatchesRepository, IMPORT_CHUNK } from './card-batches.repository';
import { IMPORT_MAX_BYTES, IMPORT_PROBLEMS_SHOWN, ImportDefaults, ImportProblem, ImportRow } from './import-format';
import { importProblem } from './import-problems';

/** Text handed to the parser at once, between two turns of the event loop. */
const TEXT_SLICE = 64 * 1024;
/** A progress line is logged after every this many rows. */
const PROGRESS_EVERY = 10_000;

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
  private readonly batches: CardBatchesRepository;

  constructor(
    dataSource: DataSource,
    private readonly logger: JsonLogger,
  ) {
    this.batches = new CardBatchesRepository(dataSource);
  }

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
      const taken = await this.batches.existingCodes(
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
          void this.batches.beat(batchId!).then(
            (alive) => (lostBatch ||= !alive),
            () => undefined,
          );
        }, IMPORT_HEARTBEAT_MS).unref();
        const stagedLines = await this.batches.stage(batchId, projectId, fresh);
        if (stagedLines.length < fresh.length) {
          // Another import running into this project has staged some of these codes.
          const got = new Set(stagedLines);
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
        await this.batches
          .discard(projectId, batchId)
          .catch((error: unknown) =>
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
    const stale = await this.batches.claimStale();
    let discarded = 0;
    let finished = 0;
    for (const batch of stale) {
      if (batch.status === 'pending') {
        await this.batches.discard(batch.project_id, batch.id);
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

  /** The import's batch, logged as it starts. */
  private async startBatch(projectId: string, cardTypeId: number | null): Promise<string> {
    const batchId = await this.batches.start(projectId, cardTypeId);
    this.logger.entry('info', 'card import started', { project_id: projectId, batch_id: batchId });
    return batchId;
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
    await this.batches.markPublishing(batchId, rows);
    let imported = 0;
    const skipped: number[] = [];
    for (;;) {
      const started = performance.now();
      const step = await this.batches.publishChunk(batchId);
      if (step.lost.length) {
        if (strict) {
          const lost = step.lost.map((line) => importProblem(line, 'code', 'code_exists'));
          this.logger.entry('warn', 'card import failed; deleting its cards', {
            project_id: projectId,
            batch_id: batchId,
            imported: imported + step.inserted,
          });
          await this.batches.discard(projectId, batchId);
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
        await this.batches.beat(batchId);
      }
      if (step.moved < IMPORT_CHUNK) break;
      await rest(started);
    }
    await this.batches.markLive(batchId, imported);
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
