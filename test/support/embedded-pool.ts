import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointedDump, checkpointIfDue } from '../../src/database/embedded-checkpoints';
import { EMBEDDED_OPTIONS } from '../../src/database/embedded-postgres';
import { fingerprint, readTemplate, Sql, TemplateState } from './template-state';

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
  dump(): Promise<Blob>;
}

interface Instance {
  db: PGlite;
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
    const server = new PGLiteSocketServer({
      db: instance.db,
      path: join(socketDir, `.s.PGSQL.${PORT}`),
      maxConnections: SPARE_CONNECTIONS,
    });
    await server.start();
    let given: Promise<void> | undefined;
    return {
      host: socketDir,
      port: PORT,
      dump: () => checkpointedDump(instance.db),
      give: () =>
        (given ??= (async () => {
          await server.stop();
          rmSync(socketDir, { recursive: true, force: true });
          await this.recycle(instance);
        })()),
    };
  }

  /**
   * Closes the idle databases unless a test file takes one within `ms`. An idle PGlite keeps a
   * timer (PostgreSQL flushes its statistics every 10 s) that would hold a Jest run in band (no
   * worker processes to end) open after its last file.
   */
  closeIdleAfter(ms: number): void {
    clearTimeout(this.closing);
    this.closing = setTimeout(() => {
      for (const instance of this.idle.splice(0)) void instance.db.close().catch(() => undefined);
    }, ms).unref();
  }

  private async create(): Promise<Instance> {
    this.dump ??= new Blob([readFileSync(this.dumpFile)]);
    const db = await PGlite.create({ ...EMBEDDED_OPTIONS, loadDataDir: this.dump });
    this.template ??= readTemplate(sqlOf(db));
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
      if ((await fingerprint(sqlOf(db))) !== template.fingerprint) throw new Error('the schema was changed');
      await db.transaction(async (tx) => {
        for (const { sql, params } of template.reset) await tx.query(sql, params);
      });
      // What the service's own timer does (a database here serves many short apps, none long enough).
      await checkpointIfDue(db);
      this.idle.push(instance);
    } catch {
      await instance.db.close().catch(() => undefined);
    }
  }
}

function sqlOf(db: PGlite): Sql {
  return async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows;
}

/** Set by global-setup.ts: the migrated embedded template as a PGlite data-directory dump. */
export const EMBEDDED_DUMP_ENV = 'CK_TEST_EMBEDDED_DUMP';
/** Where embedded-environment.ts hands each test file its worker's pool. */
export const EMBEDDED_POOL_GLOBAL = '__ckEmbeddedPool';
