import { PGlite, protocol } from '@electric-sql/pglite';

/**
 * Checkpoints for the embedded database. PGlite runs PostgreSQL as one backend in single-user mode,
 * where no checkpointer process exists: without a CHECKPOINT nothing ever ends a WAL segment's use,
 * so pg_wal grew by every byte written since the start (hundreds of MB after a day of traffic), every
 * online backup dumped and replayed all of it, and a restart after a crash replayed all of it too.
 * This does the checkpointer's job: a checkpoint every CHECKPOINT_EVERY_S, or sooner once
 * CHECKPOINT_WAL_BYTES were written since the last one, as PostgreSQL's own defaults do; with
 * EMBEDDED_START_PARAMS the segments before it are then removed, so pg_wal stays near 64 MB.
 */
export const CHECKPOINT_EVERY_S = 300;
export const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
/** How often the embedded server looks whether a checkpoint is due. */
export const CHECKPOINT_LOOK_MS = 30_000;

/** PGlite's own start parameters, and a WAL kept to a few segments beyond the last checkpoint. */
export const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'min_wal_size=32MB', '-c', 'max_wal_size=64MB'];

export interface WalSinceCheckpoint {
  bytes: number;
  seconds: number;
}

export function checkpointDue(since: WalSinceCheckpoint): boolean {
  return since.bytes > 0 && (since.bytes >= CHECKPOINT_WAL_BYTES || since.seconds >= CHECKPOINT_EVERY_S);
}

export type CheckpointOutcome = 'done' | 'not-due' | 'in-transaction';

/** Where the WAL ended just after this process's last checkpoint of each database. */
const afterLastCheckpoint = new WeakMap<PGlite, string>();

/**
 * Takes a checkpoint when one is due (`force`: whenever WAL was written since the last), between two
 * statements. PGlite is one session that every connection of its socket server shares, so while a
 * connection's transaction is open this does nothing: a statement run now would run inside it.
 */
export async function checkpointIfDue(db: PGlite, force = false): Promise<CheckpointOutcome> {
  return db.runExclusive(async () => {
    if (db.isInTransaction()) return 'in-transaction';
    // Counted from the end of the last checkpoint's own record, so that an idle database is not due.
    const known = afterLastCheckpoint.get(db);
    const from = known ? `'${known}'::pg_lsn` : 'redo_lsn';
    const [[bytes, seconds]] = await rowsOf(
      db,
      `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${from})::bigint,
        extract(epoch FROM now() - checkpoint_time)::int FROM pg_control_checkpoint()`,
    );
    if (!checkpointDue({ bytes: Number(bytes), seconds: force ? CHECKPOINT_EVERY_S : Number(seconds) })) return 'not-due';
    await rowsOf(db, 'CHECKPOINT');
    const [[end]] = await rowsOf(db, 'SELECT pg_current_wal_insert_lsn()::text');
    afterLastCheckpoint.set(db, end!);
    return 'done';
  });
}

/**
 * The data directory as a tar, just after a checkpoint: a copy opened from it replays only the WAL
 * since then (it opens like a database after a crash), not all that this one wrote since its start.
 */
export async function checkpointedDump(db: PGlite): Promise<Blob> {
  await checkpointIfDue(db, true);
  return db.dumpDataDir('none');
}

/**
 * A simple query through the wire protocol, which runExclusive leaves unlocked (query() would wait on
 * the lock held). Its answer is collected here: PGlite sends the answer of a plain execProtocol to
 * the last socket connection that streamed one, which would read it as an answer of its own.
 */
async function rowsOf(db: PGlite, sql: string): Promise<(string | null)[][]> {
  const chunks: Uint8Array[] = [];
  await db.execProtocolRawStream(protocol.serialize.query(sql), { onRawData: (chunk) => chunks.push(chunk.slice()) });
  const rows: (string | null)[][] = [];
  let failure: Error | undefined;
  new protocol.Parser().parse(Buffer.concat(chunks), (message) => {
    if (message instanceof protocol.messages.DataRowMessage) rows.push(message.fields);
    if (message instanceof protocol.messages.DatabaseError) failure ??= message;
  });
  if (failure) throw failure;
  return rows;
}
