import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { JsonLogger } from '../core/logging/json-logger';

/** Worker → primary, once the worker listens: it serves from now on. */
export const WORKER_READY = 'ck:worker:ready';
/** Primary → worker, during a rolling restart: stop taking connections, finish, then stop. */
export const WORKER_DRAIN = 'ck:worker:drain';

/**
 * How long a retiring worker waits for its connections to end before shutting down anyway (less
 * when SHUTDOWN_GRACE_MS is shorter). Node's server closes an idle kept-alive connection after 5 s
 * (`keepAliveTimeout`) and tells clients so, so a client that stays idle through the drain sees its
 * connection end the ordinary way, not while it sends.
 */
export const DRAIN_LIMIT_MS = 5500;

export function messageType(message: unknown): unknown {
  return typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
}

/**
 * In a worker of a clustered service (cluster-primary.ts), once the app listens: tells the primary it
 * serves, and retires on its request without refusing a request.
 *
 * Retiring: the listening socket closes first (`net.Server#close`, which, unlike the HTTP server's,
 * leaves kept-alive connections open: closing one while its client sends the next request would
 * lose that request), so the primary hands new connections to the other workers; every answer from
 * then on carries `Connection: close`, so each client's connection ends cleanly after its next
 * answer. When the last connection has ended (or after DRAIN_LIMIT_MS), the worker shuts down as on
 * SIGTERM (main.ts): in-flight work finishes, the database and Redis close.
 */
export function serveAsClusterWorker(server: HttpServer, graceMs: number, logger: JsonLogger): void {
  let draining = false;
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (draining && !response.headersSent) response.setHeader('Connection', 'close');
  });
  // SIGHUP is the primary's (a rolling restart); a hang-up of the terminal reaches the primary too.
  process.on('SIGHUP', () => undefined);
  process.on('message', (message: unknown) => {
    if (messageType(message) !== WORKER_DRAIN || draining) return;
    draining = true;
    logger.entry('info', 'worker draining', { pid: process.pid });
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      process.kill(process.pid, 'SIGTERM');
    };
    NetServer.prototype.close.call(server, () => stop());
    setTimeout(stop, Math.min(DRAIN_LIMIT_MS, graceMs)).unref();
  });
  process.send?.({ type: WORKER_READY });
}
