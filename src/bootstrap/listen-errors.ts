// What a start says when it cannot have its address: one line naming the setting, not a stack.
import { createServer } from 'node:net';
import type { AppConfig } from '../config/app-config';

/** A start that cannot listen where it is told to: its message is the whole story (no stack under it). */
export class ListenRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenRefusedError';
    this.stack = message;
  }
}

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** The one line for a listen error an operator can fix by a setting, or null for any other error. */
export function listenRefusal(error: unknown, port: number, host: string): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = WILDCARD.has(host) ? `port ${port}` : `port ${port} on ${host}`;
  if (code === 'EADDRINUSE') return `${where} is in use by another process: set PORT or stop it`;
  if (code === 'EACCES') {
    return `${where} may not be opened by this user (ports below 1024 need root or CAP_NET_BIND_SERVICE): set PORT above 1023, or let the proxy in front take it`;
  }
  if (code === 'EADDRNOTAVAIL')
    return `HOST ${host} is not an address of this machine: set HOST (0.0.0.0 listens on every address)`;
  return null;
}

/** `error` as the start reports it: a ListenRefusedError when a setting explains it, else itself. */
export function asListenRefusal(error: unknown, config: Pick<AppConfig, 'PORT' | 'HOST'>): unknown {
  const refusal = listenRefusal(error, config.PORT, config.HOST);
  return refusal ? new ListenRefusedError(refusal) : error;
}

/**
 * Opens and closes the service's address before the app listens, so that a port in use is told in
 * one line before the framework logs its own error (Nest logs a failed listen at `error`, Express and
 * Fastify alike). PORT=0 (any free port) needs no look. A cluster's primary looks once for all its
 * workers; a worker must not (the primary holds the port its workers share).
 */
export function assertCanListen(config: Pick<AppConfig, 'PORT' | 'HOST'>): Promise<void> {
  if (config.PORT === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error) => reject(asListenRefusal(error, config)));
    server.listen({ port: config.PORT, host: config.HOST, exclusive: true }, () => server.close(() => resolve()));
  });
}
