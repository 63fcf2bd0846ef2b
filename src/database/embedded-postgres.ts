import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * PostgreSQL embedded in the process (PGlite), served on a private Unix socket so that TypeORM
 * reaches it with the ordinary `pg` driver and the same migrations as a real server.
 * PGlite is a single session: the pool must hold exactly one connection. The socket server still
 * accepts a few: when a statement fails, the pool discards its connection and opens a new one at
 * once, before the server has seen the old one close; with room for one connection only, that new
 * one was refused and every next request failed with `write EPIPE`.
 */
const SPARE_CONNECTIONS = 4;

export class EmbeddedPostgres {
  private db?: PGlite;
  private server?: PGLiteSocketServer;
  private socketDir?: string;

  async start(dataDir: string): Promise<{ host: string; port: number }> {
    const pgData = resolve(dataDir, 'pgdata');
    mkdirSync(pgData, { recursive: true });
    this.db = await PGlite.create(pgData);
    this.socketDir = mkdtempSync(join(tmpdir(), 'ck-pg-'));
    const port = 5432;
    this.server = new PGLiteSocketServer({ db: this.db, path: join(this.socketDir, `.s.PGSQL.${port}`), maxConnections: SPARE_CONNECTIONS });
    await this.server.start();
    return { host: this.socketDir, port };
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    await this.db?.close();
    if (this.socketDir) rmSync(this.socketDir, { recursive: true, force: true });
    this.server = undefined;
    this.db = undefined;
  }
}
