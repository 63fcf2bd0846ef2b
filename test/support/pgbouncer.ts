import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service-process';

export interface PgBouncer {
  port: number;
  /** `databaseUrl` with its host and port replaced by the pooler's. */
  through(databaseUrl: string): string;
  log(): string;
  /**
   * Sends new connections to another server (a promoted standby): rewrites `[databases]` and
   * reloads (SIGHUP). Server connections to the old one close as they are released.
   */
  repoint(host: string, port: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer in transaction mode in front of the PostgreSQL that `databaseUrl` names, on a
 * free port, with that URL's user and password (decisions §25). PgBouncer will not run as root: as
 * root it is started with `-u postgres`.
 */
export async function startPgBouncer(
  databaseUrl: string,
  poolSize = 10,
  /** More `[pgbouncer]` settings, e.g. `server_login_retry`. */
  settings: Record<string, string | number> = {},
): Promise<PgBouncer> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ck-pgbouncer-'));
  chmodSync(dir, 0o777);
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`);
  const ini = (serverHost: string, serverPort: string | number) =>
    [
      '[databases]',
      `* = host=${serverHost} port=${serverPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir =`,
      'auth_type = plain',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 1000',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      ...Object.entries(settings).map(([key, value]) => `${key} = ${value}`),
      '',
    ].join('\n');
  writeFileSync(join(dir, 'pgbouncer.ini'), ini(target.hostname, target.port || 5432));
  for (const file of ['userlist.txt', 'pgbouncer.ini']) chmodSync(join(dir, file), 0o644);
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child: ChildProcess = spawn('pgbouncer', [...asRoot, join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  const log = () => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PgBouncer did not start:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    through: (url) => {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    log,
    repoint: async (host, port) => {
      writeFileSync(join(dir, 'pgbouncer.ini'), ini(host, port));
      const reloaded = log().length;
      child.kill('SIGHUP');
      const deadline = Date.now() + 5_000;
      while (!/SIGHUP|re-reading|reload/i.test(log().slice(reloaded)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
