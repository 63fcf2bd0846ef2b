import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Migrated embedded databases for the test apps of one Jest worker, kept across its test files
 * (embedded-environment.ts holds the pool outside each file's module registry). Starting PGlite
 * costs about a second of CPU per app; a database given back is emptied to the migrated template's
 * contents instead (tens of milliseconds) and handed to the next app. One whose schema a test
 * changed is closed rather than reused, so every app still starts on exactly the template.
 */
export interface EmbeddedLease {
  host: string;
  port: number;
  give(): Promise<void>;
}

interface Instance {
  db: PGlite;
}

/** What the migrated template holds: seeded rows and sequence positions, and its schema's fingerprint. */
interface TemplateState {
  truncate: string;
  seeds: Array<{ sql: string; rows: string }>;
  sequences: string[];
  fingerprint: string;
}

const PORT = 5432;
const SPARE_CONNECTIONS = 4; // as src/database/embedded-postgres.ts, for the same reason
const MAX_IDLE = 2;

export class EmbeddedPool {
  private readonly idle: Instance[] = [];
  private dump?: Blob;
  private template?: Promise<TemplateState>;
  private closing?: NodeJS.Timeout;

  constructor(private readonly dumpFile: string) {}

  async take(): Promise<EmbeddedLease> {
    clearTimeout(this.closing);
    const instance = this.idle.pop() ?? (await this.create());
    const socketDir = mkdtempSync(join(tmpdir(), 'ck-pg-'));
    const server = new PGLiteSocketServer({ db: instance.db, path: join(socketDir, `.s.PGSQL.${PORT}`), maxConnections: SPARE_CONNECTIONS });
    await server.start();
    let given: Promise<void> | undefined;
    return {
      host: socketDir,
      port: PORT,
      give: () =>
        (given ??= (async () => {
          await server.stop();
          rmSync(socketDir, { recursive: true, force: true });
          await this.recycle(instance);
        })()),
    };
  }

  /**
   * Closes the idle databases unless a test file takes one within `ms`: an idle PGlite keeps a timer
   * that would hold a Jest run in band (no worker processes to end) open after its last file.
   */
  closeIdleAfter(ms: number): void {
    clearTimeout(this.closing);
    this.closing = setTimeout(() => {
      for (const instance of this.idle.splice(0)) void instance.db.close().catch(() => undefined);
    }, ms).unref();
  }

  private async create(): Promise<Instance> {
    this.dump ??= new Blob([readFileSync(this.dumpFile)]);
    const db = await PGlite.create({ loadDataDir: this.dump });
    this.template ??= readTemplate(db);
    await this.template;
    return { db };
  }

  /** Back to the template's contents, or closed when that cannot be promised. */
  private async recycle(instance: Instance): Promise<void> {
    const template = await this.template!;
    try {
      if (this.idle.length >= MAX_IDLE) throw new Error('enough idle databases');
      const { db } = instance;
      if (db.isInTransaction()) await db.exec('ROLLBACK');
      await db.exec('DISCARD ALL');
      if ((await fingerprint(db)) !== template.fingerprint) throw new Error('the schema was changed');
      await db.transaction(async (tx) => {
        await tx.exec(template.truncate);
        for (const seed of template.seeds) await tx.query(seed.sql, [seed.rows]);
        for (const sql of template.sequences) await tx.exec(sql);
      });
      this.idle.push(instance);
    } catch {
      await instance.db.close().catch(() => undefined);
    }
  }
}

async function readTemplate(db: PGlite): Promise<TemplateState> {
  const tables = (
    await db.query<{ name: string }>(
      `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
    )
  ).rows.map((row) => row.name);
  const seeds: TemplateState['seeds'] = [];
  for (const table of tables) {
    const { rows } = await db.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${table} t`);
    if (rows[0].rows === null) continue;
    const columns = (
      await db.query<{ name: string }>(
        `SELECT quote_ident(attname) AS name FROM pg_attribute
          WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
        [table],
      )
    ).rows.map((row) => row.name);
    const list = columns.join(', ');
    seeds.push({
      sql: `INSERT INTO ${table} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      rows: rows[0].rows,
    });
  }
  const sequences = (
    await db.query<{ name: string; last_value: string | null }>(
      `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text FROM pg_sequences WHERE schemaname = 'public'`,
    )
  ).rows.map((row) => (row.last_value === null ? `ALTER SEQUENCE ${row.name} RESTART` : `SELECT setval('${row.name}', ${row.last_value}, true)`));
  return {
    truncate: tables.length ? `TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE` : 'SELECT 1',
    seeds,
    sequences,
    fingerprint: await fingerprint(db),
  };
}

/** Everything a test could change besides rows: relations, columns, triggers, functions, schemas, roles. */
async function fingerprint(db: PGlite): Promise<string> {
  const { rows } = await db.query<{ digest: string }>(
    `SELECT md5(string_agg(x, ',' ORDER BY x)) AS digest FROM (
       SELECT 'c:' || n.nspname || '.' || c.relname || ':' || c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       UNION ALL
       SELECT 'a:' || a.attrelid::regclass || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull || ':' ||
              coalesce(pg_get_expr(d.adbin, d.adrelid), '')
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped
       UNION ALL SELECT 't:' || tgrelid::regclass || '.' || tgname || ':' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
       UNION ALL SELECT 'p:' || p.oid::regprocedure || ':' || md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
       UNION ALL SELECT 'n:' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%temp\\_%'
       UNION ALL SELECT 'r:' || rolname FROM pg_roles
       UNION ALL SELECT 's:' || setdatabase || ':' || setrole || ':' || array_to_string(setconfig, ';') FROM pg_db_role_setting
     ) s(x)`,
  );
  return rows[0].digest;
}

/** Set by global-setup.ts: the migrated embedded template as a PGlite data-directory dump. */
export const EMBEDDED_DUMP_ENV = 'CK_TEST_EMBEDDED_DUMP';
/** Where embedded-environment.ts hands each test file its worker's pool. */
export const EMBEDDED_POOL_GLOBAL = '__ckEmbeddedPool';
