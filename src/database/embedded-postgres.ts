import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataDirLock, lockDataDir } from './data-dir-lock';
import { CHECKPOINT_LOOK_MS, checkpointedDump, checkpointIfDue, EMBEDDED_START_PARAMS } from './embedded-checkpoints';

/**
 * PostgreSQL embedded in the process (PGlite), served on a private Unix socket so that TypeORM
 * reaches it with the ordinary `pg` driver and the same migrations as a real server.
 * PGlite is a single session: the pool must hold exactly one connection. The socket server still
 * accepts a few: when a statement fails, the pool discards its connection and opens a new one at
 * once, before the server has seen the old one close; with room for one connection only, that new
 * one was refused and every next request failed with `write EPIPE`.
 */
const SPARE_CONNECTIONS = 4;

/** Embedded databases already running and migrated: the test harness's pool (test/support/embedded-pool.ts). */
export interface EmbeddedSource {
  take(): Promise<{ host: string; port: number; give(): Promise<void>; dump(): Promise<Blob> }>;
}

let source: EmbeddedSource | undefined;

/**
 * For the test harness only: from now on start() takes a database from `next` instead of starting
 * PGlite in DATA_DIR (about a second of CPU per test app), and stop() gives it back.
 */
export function useEmbeddedSource(next: EmbeddedSource | undefined): void {
  source = next;
}

/**
 * How every PGlite of the service and its tests opens: with the extensions the migrations create
 * (pg_trgm: the card search by part of a code) and a bounded WAL (embedded-checkpoints.ts).
 */
export const EMBEDDED_OPTIONS = { extensions: { pg_trgm }, startParams: EMBEDDED_START_PARAMS };

export class EmbeddedPostgres {
  private db?: PGlite;
  private server?: PGLiteSocketServer;
  private socketDir?: string;
  private lease?: Awaited<ReturnType<EmbeddedSource['take']>>;
  private lock?: DataDirLock;
  private checkpoints?: NodeJS.Timeout;

  /**
   * Opens the database in `dataDir` once this process holds the directory (data-dir-lock.ts): another
   * process holding it is refused at once with a DataDirInUseError. `httpPort`: the port this process
   * serves on, which such a refusal names.
   */
  async start(dataDir: string, httpPort?: number): Promise<{ host: string; port: number }> {
    if (source) {
      this.lease = await source.take();
      return { host: this.lease.host, port: this.lease.port };
    }
    const pgData = resolve(dataDir, 'pgdata');
    mkdirSync(pgData, { recursive: true });
    this.lock = await lockDataDir(dataDir, httpPort);
    const db = await PGlite.create(pgData, EMBEDDED_OPTIONS);
    this.db = db;
    // A failed look (the database closing) is tried again at the next one.
    this.checkpoints = setInterval(() => void checkpointIfDue(db).catch(() => undefined), CHECKPOINT_LOOK_MS).unref();
    this.socketDir = mkdtempSync(join(tmpdir(), 'ck-pg-'));
    const port = 5432;
    this.server = new PGLiteSocketServer({
      db: this.db,
      path: join(this.socketDir, `.s.PGSQL.${port}`),
      maxConnections: SPARE_CONNECTIONS,
    });
    await this.server.start();
    return { host: this.socketDir, port };
  }

  /**
   * A copy of the running database in memory, for an online backup to read at leisure: PGlite is one
   * session, so a long read on it would hold every login. The copy is taken between two statements
   * (the dump waits for the one running) and opens like a database after a crash, with every
   * committed transaction in it. Null when this process runs no embedded database.
   */
  async snapshot(): Promise<PGlite | null> {
    const dump = this.lease ? await this.lease.dump() : this.db && (await checkpointedDump(this.db));
    if (!dump) return null;
    return PGlite.create({ ...EMBEDDED_OPTIONS, loadDataDir: dump });
  }

  async stop(): Promise<void> {
    clearInterval(this.checkpoints);
    const lease = this.lease;
    this.lease = undefined;
    await lease?.give();
    await this.server?.stop();
    await this.db?.close();
    if (this.socketDir) rmSync(this.socketDir, { recursive: true, force: true });
    await this.lock?.release();
    this.server = undefined;
    this.db = undefined;
    this.lock = undefined;
  }
}
