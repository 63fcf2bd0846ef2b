import { MigrationInterface, QueryRunner } from 'typeorm';
import { DEFAULT_PARTITION, ensureMonthPartitions, monthStart } from '../login-logs/log-partitions';
import { ArchiveManifest, ArchiveRefused } from './archive-manifest';
import { quoteIdent } from './snapshot-export';
import { tableEntryPath, tableLines } from './table-lines';
import { sqlOn } from '../database/sql';

type MigrationClass = new () => MigrationInterface;

/** Bytes of rows sent in one INSERT: large enough to be quick, small enough for any server's limits. */
const BATCH_BYTES = 1024 * 1024;

export interface RestoreOutcome {
  /** Rows restored per table. */
  tables: Record<string, number>;
}

/** Whether the database already holds a project: a restore over it needs `--force`. */
export async function holdsProjects(runner: QueryRunner): Promise<boolean> {
  const sql = sqlOn(runner);
  const [{ present }] = await sql(`SELECT to_regclass('projects') IS NOT NULL AS present`);
  if (!present) return false;
  const [{ any }] = await sql('SELECT EXISTS (SELECT 1 FROM projects) AS any');
  return any === true;
}

/**
 * Puts the archive's rows into the database in one transaction: all of them or, on any failure,
 * none and the database as it was. The schema is first made exactly the archive's: what was there
 * is dropped, then the migrations the archive's database had applied run, in their order. Triggers
 * are off while the rows go in (the counts they keep are restored as rows) and foreign keys are
 * dropped and added back, so that rows go in table by table in any order and are still all checked.
 * Sequences then continue past the restored ids. The caller runs the newer migrations afterwards.
 */
export async function restoreRows(
  runner: QueryRunner,
  dir: string,
  manifest: ArchiveManifest,
  migrations: MigrationClass[],
): Promise<RestoreOutcome> {
  const applied = await archivedMigrations(dir);
  const byName = new Map(migrations.map((Migration) => [migrationName(Migration), Migration]));
  const unknown = applied.filter((name) => !byName.has(name));
  if (unknown.length)
    throw new ArchiveRefused(`the archive's schema has migrations this release does not know: ${unknown.join(', ')}`);
  const sql = sqlOn(runner);
  const tables: Record<string, number> = {};
  await runner.startTransaction();
  try {
    await sql('DROP SCHEMA IF EXISTS public CASCADE');
    await sql('CREATE SCHEMA public');
    await sql('GRANT USAGE ON SCHEMA public TO PUBLIC');
    await sql(`CREATE TABLE migrations (id SERIAL PRIMARY KEY, "timestamp" bigint NOT NULL, name varchar NOT NULL)`);
    for (const name of applied) await new (byName.get(name)!)().up(runner);

    const existing = new Set((await userTables(sql)).map((row) => row.name));
    const missing = Object.keys(manifest.tables).filter((table) => !existing.has(table));
    if (missing.length) throw new ArchiveRefused(`the archive holds tables its schema does not make: ${missing.join(', ')}`);
    const foreignKeys = await sql(
      `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE contype = 'f' AND connamespace = 'public'::regnamespace AND conparentid = 0`,
    );
    for (const key of foreignKeys) await sql(`ALTER TABLE ${String(key.tbl)} DROP CONSTRAINT ${quoteIdent(String(key.name))}`);
    const withTriggers = await sql(
      `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace`,
    );
    for (const { name } of withTriggers) await sql(`ALTER TABLE ${quoteIdent(String(name))} DISABLE TRIGGER USER`);
    await sql(`TRUNCATE ${[...existing].map(quoteIdent).join(', ')}`);

    const logs = manifest.tables.login_logs ? tableEntryPath(dir, 'login_logs') : null;
    if (logs) await makeLogPartitions(sql, logs);
    for (const table of Object.keys(manifest.tables).sort()) {
      const path = tableEntryPath(dir, table);
      if (!path) throw new ArchiveRefused(`the archive lacks the rows of ${table}, which its manifest names`);
      tables[table] = await insertRows(sql, table, path);
    }

    for (const { name } of withTriggers) await sql(`ALTER TABLE ${quoteIdent(String(name))} ENABLE TRIGGER USER`);
    for (const key of foreignKeys)
      await sql(`ALTER TABLE ${String(key.tbl)} ADD CONSTRAINT ${quoteIdent(String(key.name))} ${String(key.def)}`);
    await continueSequences(sql);
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  }
  return { tables };
}

/** TypeORM's name for a migration: its `name`, else its class's. */
export function migrationName(Migration: MigrationClass): string {
  return new Migration().name ?? Migration.name;
}

/** The migrations the archive's database had applied, in the order they ran. */
async function archivedMigrations(dir: string): Promise<string[]> {
  const path = tableEntryPath(dir, 'migrations');
  if (!path) throw new ArchiveRefused('the archive has no migrations table: not a backup of this service');
  const rows: Array<{ id: number; name: string }> = [];
  for await (const line of tableLines(path)) if (line) rows.push(JSON.parse(line) as { id: number; name: string });
  return rows.sort((a, b) => a.id - b.id).map((row) => row.name);
}

async function userTables(sql: (text: string) => Promise<Array<Record<string, unknown>>>): Promise<Array<{ name: string }>> {
  return (await sql(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition`,
  )) as Array<{ name: string }>;
}

/** Streams one table's lines into INSERTs of about BATCH_BYTES each; generated columns are computed again. */
async function insertRows(
  sql: (text: string, params?: unknown[]) => Promise<unknown>,
  table: string,
  path: string,
): Promise<number> {
  const columns = (await sql(
    `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attnum`,
    [quoteIdent(table)],
  )) as Array<{ name: string }>;
  const list = columns.map((column) => quoteIdent(column.name)).join(', ');
  const insert = `INSERT INTO ${quoteIdent(table)} (${list}) OVERRIDING SYSTEM VALUE
    SELECT ${list} FROM json_populate_recordset(NULL::${quoteIdent(table)}, $1::json)`;
  let rows = 0;
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (!batch.length) return;
    await sql(insert, [`[${batch.join(',')}]`]);
    batch = [];
    bytes = 0;
  };
  for await (const line of tableLines(path)) {
    if (!line) continue;
    batch.push(line);
    bytes += line.length;
    rows += 1;
    if (bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return rows;
}

/**
 * The month partitions the archive's log rows need, made before they go in (log-partitions.ts, as the
 * live maintenance makes them): each row then lands in its month at once, instead of in the default
 * partition to be moved again. The months are read from the rows' text, without parsing them.
 */
async function makeLogPartitions(
  sql: (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>,
  path: string,
): Promise<void> {
  const [{ partitioned }] = await sql(`SELECT to_regclass($1) IS NOT NULL AS partitioned`, [DEFAULT_PARTITION]);
  if (!partitioned) return;
  let oldest: string | null = null;
  for await (const line of tableLines(path)) {
    const month = LOG_ROW_MONTH.exec(line)?.[1];
    if (month && (oldest === null || month < oldest)) oldest = month;
  }
  if (oldest) await ensureMonthPartitions(sql, new Date(), monthStart(new Date(`${oldest}-01T00:00:00Z`)));
}

/** A log row's month, as row_to_json writes its created_at in UTC: `"created_at":"2026-03-…`. */
const LOG_ROW_MONTH = /"created_at":"(\d{4}-\d{2})-/;

/** Every sequence behind a column continues after the largest value restored in it. */
async function continueSequences(sql: (text: string) => Promise<Array<Record<string, unknown>>>): Promise<void> {
  const uses = await sql(
    `SELECT c.relname AS tbl, a.attname AS col, pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS seq
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND a.attnum > 0 AND NOT a.attisdropped AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`,
  );
  for (const { tbl, col, seq } of uses) {
    await sql(
      `SELECT setval('${String(seq).replace(/'/g, "''")}', COALESCE((SELECT max(${quoteIdent(String(col))}) FROM ${quoteIdent(String(tbl))}), 0) + 1, false)`,
    );
  }
}
