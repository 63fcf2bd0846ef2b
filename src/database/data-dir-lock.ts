import { createHash } from 'node:crypto';
import { realpathSync, rmSync } from 'node:fs';
import { connect, createServer, Server } from 'node:net';
import { join } from 'node:path';

/**
 * One process per data directory: two PGlite instances on one pgdata each write over the other's
 * pages, and one side's writes are lost without an error. The lock is a listening Unix socket, which
 * the kernel closes when its process ends, however it ends: no pid file to go stale. On Linux it is
 * named in the abstract namespace by a digest of the directory's real path, so binding is atomic and
 * nothing is left on disk. Elsewhere it is a socket file in the directory, and one that refuses
 * connections is a dead holder's, removed and bound again (not atomic: two starts racing over one
 * dead holder's file may both bind). The holder answers each connection with its pid and port, so
 * that a refused process can say whom to stop. The abstract namespace belongs to a network
 * namespace: another container on the same volume does not see it (run tools in the service's
 * container, `docker compose exec`).
 */

/** The process holding a data directory: `port` is its HTTP port, absent for a tool (the doctor). */
export interface DataDirHolder {
  pid: number;
  port?: number;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder | null,
  ) {
    const who = holder ? ` (pid ${holder.pid}${holder.port === undefined ? '' : `, port ${holder.port}`})` : '';
    super(`the data directory ${dataDir} is in use by another process${who}: stop it first, or give this one another DATA_DIR`);
    this.name = 'DataDirInUseError';
    // The message is the whole story: no stack under it in the start's log line or on the terminal.
    this.stack = this.message;
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** How long a refused process waits for the holder to say who it is (its event loop may be busy opening the database). */
const HOLDER_ANSWER_MS = 5000;

/** Takes the lock on `dataDir` (which must exist) for this process, or throws DataDirInUseError naming its holder. */
export async function lockDataDir(dataDir: string, port?: number): Promise<DataDirLock> {
  const directory = realpathSync(dataDir);
  const { path, isFile } = lockAddress(directory);
  const holder: DataDirHolder = { pid: process.pid, ...(port === undefined ? {} : { port }) };
  // Twice at most: a holder gone between the two calls (its socket file, off Linux, removed) frees the address.
  for (let attempt = 0; ; attempt += 1) {
    const server = createServer((socket) => {
      socket.on('error', () => undefined); // a client that hangs up early is no concern of the holder's
      socket.end(JSON.stringify(holder));
    });
    try {
      await listen(server, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const answer = await askHolder(path);
      if (answer === 'gone' && attempt === 0) {
        if (isFile) rmSync(path, { force: true });
        continue;
      }
      throw new DataDirInUseError(directory, answer === 'gone' || answer === 'silent' ? null : answer);
    }
    server.unref(); // the lock never keeps a process alive by itself
    return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
}

function lockAddress(directory: string): { path: string; isFile: boolean } {
  if (process.platform === 'linux') {
    const digest = createHash('sha256').update(directory).digest('hex').slice(0, 32);
    return { path: `\0cardkey-data-${digest}`, isFile: false };
  }
  return { path: join(directory, 'lock.sock'), isFile: true };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The holder's own answer; `gone` when nothing listens any more, `silent` when it did not answer in time. */
function askHolder(path: string): Promise<DataDirHolder | 'gone' | 'silent'> {
  return new Promise((resolve) => {
    const socket = connect(path);
    let text = '';
    const done = (answer: DataDirHolder | 'gone' | 'silent') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done('silent'), HOLDER_ANSWER_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => done(parseHolder(text) ?? 'silent'));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'gone' : 'silent'),
    );
  });
}

function parseHolder(text: string): DataDirHolder | null {
  try {
    const { pid, port } = JSON.parse(text) as Partial<DataDirHolder>;
    if (typeof pid !== 'number') return null;
    return { pid, ...(typeof port === 'number' ? { port } : {}) };
  } catch {
    return null;
  }
}
