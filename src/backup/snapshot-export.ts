import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import type { Sql } from '../database/sql';
import { fileDigest, listEntries } from './archive-file';
import {
  ArchiveManifest,
  FILES_FOLDER,
  KEY_ENTRY,
  keyCheck,
  LOG_TABLES,
  MANIFEST_ENTRY,
  tableEntry,
  TABLES_FOLDER,
} from './archive-manifest';
import { LATE_LOG_TABLE, LoginLogAfterSnapshot } from './login-log-after-snapshot';

export interface SnapshotSource {
  sql: Sql;
  /**
   * A second session on the same database, where writers may be running: the login log is then read
   * after the snapshot instead of in it (LoginLogAfterSnapshot), so the snapshot lives briefly.
   */
  besideSql?: Sql;
  /** Where the uploaded files are (absent: none to copy). */
  filesDir?: string;
  /** The key the secrets are stored under, when known. */
  key: Buffer | null;
}

export interface SnapshotOptions {
  withoutLogs?: boolean;
  /** Puts the key inside (the caller encrypts the archive as a whole). */
  includeKey?: boolean;
}

/** Rows fetched at a time: a table of any size is streamed, never held. */
const FETCH_ROWS = 2000;
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Writes every table of the database (and the uploaded files) into `dir` as the archive's entries,
 * with the manifest, from one read-only REPEATABLE READ snapshot: writes go on meanwhile and every one
 * committed before it began is in it. With a second session beside (`besideSql`), the login log's
 * rows of that snapshot are read after it ends (LoginLogAfterSnapshot). Rows are PostgreSQL's own JSON of each row (row_to_json), one
 * per line, never parsed here, so that bigint, numeric, bytea and times keep their exact text.
 */
export async function writeSnapshot(
  source: SnapshotSource,
  dir: string,
  options: SnapshotOptions = {},
): Promise<ArchiveManifest> {
  const { sql } = source;
  await mkdir(join(dir, TABLES_FOLDER), { recursive: true });
  const tables: Record<string, number> = {};
  const sha256: Record<string, string> = {};
  let createdAt = '';
  const beginSnapshot = async () => {
    await sql('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The first statement fixes the snapshot; its time is the archive's.
    const [{ now }] = await sql(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now`);
    createdAt = String(now);
  };
  let late: LoginLogAfterSnapshot | null = null;
  let schema: string;
  try {
    if (source.besideSql && !options.withoutLogs)
      late = await LoginLogAfterSnapshot.hold(source.besideSql, async () => {
        await beginSnapshot();
        const [{ last }] = await sql(`SELECT max(id)::text AS last FROM ${LATE_LOG_TABLE}`);
        return last === null ? null : String(last);
      });
    if (!late) await beginSnapshot();
    const [last] = await sql('SELECT name FROM migrations ORDER BY timestamp DESC, id DESC LIMIT 1');
    if (!last) throw new Error('the database has no migration applied: nothing to back up');
    schema = String(last.name);
    const names = await sql(
      `SELECT c.relname AS name FROM pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        ORDER BY c.relname`,
    );
    for (const { name } of names) {
      const table = String(name);
      if (options.withoutLogs && LOG_TABLES.includes(table)) continue;
      if (late && table === LATE_LOG_TABLE) continue;
      const entry = tableEntry(table);
      const result = await writeEntry(join(dir, entry), (write) => readTable(sql, table, write));
      tables[table] = result.rows;
      sha256[entry] = result.sha256;
    }
    if (source.filesDir && existsSync(source.filesDir)) await cp(source.filesDir, join(dir, FILES_FOLDER), { recursive: true });
    await sql('COMMIT');
  } catch (error) {
    await sql('ROLLBACK').catch(() => undefined);
    await late?.abandon();
    throw error;
  }
  if (late) {
    const entry = tableEntry(LATE_LOG_TABLE);
    const log = late;
    const result = await writeEntry(join(dir, entry), (write) => log.read(write));
    tables[LATE_LOG_TABLE] = result.rows;
    sha256[entry] = result.sha256;
  }
  for (const entry of await listEntries(dir))
    if (entry.startsWith(`${FILES_FOLDER}/`)) sha256[entry] = await fileDigest(join(dir, entry));
  if (options.includeKey && source.key) {
    await mkdir(join(dir, 'key'), { recursive: true });
    await writeFile(join(dir, KEY_ENTRY), source.key.toString('hex') + '\n', { mode: 0o600 });
    sha256[KEY_ENTRY] = await fileDigest(join(dir, KEY_ENTRY));
  }
  const manifest: ArchiveManifest = {
    format: 'cardkey-backup',
    version: 1,
    created_at: createdAt,
    schema,
    tables,
    sha256,
    key_check: source.key ? keyCheck(source.key) : null,
    without_logs: Boolean(options.withoutLogs),
  };
  await writeFile(join(dir, MANIFEST_ENTRY), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * Streams the lines `produce` writes through gzip into `path`, hashing what is written. zlib works on
 * the thread pool, so compressing runs beside the reads, and the disk gets a fraction of the JSON's
 * bytes: the logins' commits share that disk.
 */
async function writeEntry(
  path: string,
  produce: (write: (text: string) => Promise<void>) => Promise<number>,
): Promise<{ rows: number; sha256: string }> {
  const file = createWriteStream(path);
  const out = createGzip({ level: constants.Z_BEST_SPEED });
  const hash = createHash('sha256');
  const hashed = new Transform({
    transform: (chunk: Buffer, _encoding, done) => {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const written = pipeline(out, hashed, file);
  written.catch(() => undefined); // awaited below; a disk error also fails the write under way (once 'drain')
  let rows: number;
  try {
    rows = await produce(async (text) => {
      if (!out.write(text)) await once(out, 'drain');
    });
  } finally {
    out.end();
    await written;
  }
  return { rows, sha256: hash.digest('hex') };
}

/** A table's rows, read through a cursor in the snapshot's transaction. */
async function readTable(sql: Sql, table: string, write: (text: string) => Promise<void>): Promise<number> {
  let rows = 0;
  const cursor = quoteIdent(`backup_${table}`.slice(0, 60));
  await sql(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS line FROM ${quoteIdent(table)} t`);
  for (;;) {
    const batch = await sql(`FETCH ${FETCH_ROWS} FROM ${cursor}`);
    if (!batch.length) break;
    rows += batch.length;
    await write(batch.map((row) => `${String(row.line)}\n`).join(''));
  }
  await sql(`CLOSE ${cursor}`);
  return rows;
}
