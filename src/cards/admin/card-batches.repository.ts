import { performance } from 'node:perf_hooks';
import { Any, DataSource, Not } from 'typeorm';
import { CardBatch } from '../card-batch.entity';
import { rest } from './batch-pacing';
import { Card } from '../card.entity';
import { CardImportRow } from './card-import-row.entity';
import { ImportRow } from './import-format';

/**
 * Rows per statement: a code check, a staging INSERT, a move into `cards`. Small enough that one
 * statement holds the embedded database (one connection, in the service's own thread) for some
 * milliseconds only, so the logins of every other project pass between two of them.
 */
export const IMPORT_CHUNK = 100;
/** A batch not yet live whose heartbeat is older than this was left by a process that died. */
export const IMPORT_STALE_MS = 120_000;

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

/** A batch not yet live whose process stopped renewing its heartbeat. */
export interface StaleBatch {
  id: string;
  project_id: string;
  status: string;
  count: number;
}

/**
 * The import's write stage: its batch in `card_batches`, its rows staged in `card_import_rows`,
 * then moved into `cards` a chunk at a time. The staging, the move and the chunked deletes stay raw
 * SQL (ON CONFLICT … RETURNING, a CTE across three tables, DELETE … LIMIT); the rest goes through TypeORM.
 */
export class CardBatchesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The codes of `codes` the project already has. */
  async existingCodes(projectId: string, codes: string[]): Promise<Set<string>> {
    if (!codes.length) return new Set();
    // The codes as one array parameter (ANY), not one parameter per code.
    const found = await this.dataSource
      .getRepository(Card)
      .find({ select: { code: true }, where: { projectId, code: Any(codes) } });
    return new Set(found.map((r) => r.code));
  }

  /**
   * A pending batch (an import's, or a generation's under its idempotency key); with a card type,
   * every card it publishes keeps the type (PUBLISH_ROWS reads it here).
   */
  async start(
    projectId: string,
    cardTypeId: number | null,
    options: { idempotencyKey?: string; count?: number } = {},
  ): Promise<string> {
    const { identifiers } = await this.dataSource.getRepository(CardBatch).insert({
      projectId,
      idempotencyKey: options.idempotencyKey ?? null,
      count: options.count ?? 0,
      status: 'pending',
      heartbeatAt: () => 'now()',
      cardTypeId,
    });
    return identifiers[0].id as string;
  }

  /** Renews the heartbeat; false when the batch is gone (swept as abandoned). */
  async beat(batchId: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(CardBatch)
      .update({ id: batchId, status: Not('live') }, { heartbeatAt: () => 'now()' });
    return result.affected !== 0;
  }

  /** Stages checked rows; answers the lines staged (a code another running import staged is not). */
  async stage(batchId: string, projectId: string, rows: ImportRow[]): Promise<number[]> {
    // Raw: ON CONFLICT DO NOTHING RETURNING over unnest arrays.
    const staged: Array<{ line: number }> = await this.dataSource.query(STAGE_ROWS, [batchId, projectId, ...columnsOf(rows)]);
    return staged.map((r) => r.line);
  }

  async markPublishing(batchId: string, rows: number): Promise<void> {
    await this.dataSource
      .getRepository(CardBatch)
      .update({ id: batchId }, { status: 'publishing', count: rows, heartbeatAt: () => 'now()' });
  }

  /** Moves the next IMPORT_CHUNK staged rows into `cards`: how many moved, how many went in, the lines of codes taken meanwhile. */
  async publishChunk(batchId: string): Promise<{ moved: number; inserted: number; lost: number[] }> {
    // Raw: one CTE deletes, inserts and binds across three tables in one statement.
    const [step]: Array<{ moved: number; inserted: number; lost: number[] }> = await this.dataSource.query(PUBLISH_ROWS, [
      batchId,
      IMPORT_CHUNK,
    ]);
    return step;
  }

  async markLive(batchId: string, imported: number): Promise<void> {
    await this.dataSource
      .getRepository(CardBatch)
      .update({ id: batchId }, { status: 'live', count: imported, heartbeatAt: null });
  }

  /** Claims the batches of stopped processes by renewing their heartbeat, so two instances never take the same one. */
  async claimStale(): Promise<StaleBatch[]> {
    // Raw: a conditional UPDATE … RETURNING claims and reads in one statement. An UPDATE answers [rows, count].
    const [stale]: [StaleBatch[]] = await this.dataSource.query(
      `UPDATE card_batches SET heartbeat_at = now()
       WHERE status <> 'live' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => $1))
       RETURNING id, project_id, status, count`,
      [IMPORT_STALE_MS / 1000],
    );
    return stale;
  }

  /** Deletes an unfinished batch: its staged rows and any cards already moved, chunk by chunk, then the batch. */
  async discard(projectId: string, batchId: string): Promise<void> {
    // A chunk at a time (DELETE of the first IMPORT_CHUNK * 2 rows), resting between chunks.
    const params = { batchId, projectId, limit: IMPORT_CHUNK * 2 };
    const deleteAll = async (target: typeof CardImportRow | typeof Card, where: string) => {
      for (;;) {
        const started = performance.now();
        const { affected } = await this.dataSource.createQueryBuilder().delete().from(target).where(where, params).execute();
        if (!affected) return;
        await rest(started);
      }
    };
    await deleteAll(
      CardImportRow,
      'batch_id = :batchId AND project_id = :projectId AND line IN (SELECT line FROM card_import_rows WHERE batch_id = :batchId LIMIT :limit)',
    );
    await deleteAll(Card, 'id IN (SELECT id FROM cards WHERE batch_id = :batchId AND project_id = :projectId LIMIT :limit)');
    await this.dataSource.getRepository(CardBatch).delete({ id: batchId });
  }
}

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
