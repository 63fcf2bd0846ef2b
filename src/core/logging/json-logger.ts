import { LoggerService } from '@nestjs/common';
import { stdoutBatcher } from './line-batcher';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

/**
 * Nest's start-up chatter (one line per module, controller and route: about 165) is written at
 * debug; at info the start shows the short banner of src/bootstrap/start-banner.ts instead.
 */
export const FRAMEWORK_START_CONTEXTS: ReadonlySet<string> = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/**
 * One JSON object per line. A line about a request carries its `request_id` among the fields its
 * caller passes (the access log, the fault log). Callers pass messages and safe fields only: request
 * bodies, passwords, tokens and secrets are never handed to the logger.
 */
export class JsonLogger implements LoggerService {
  private readonly write: (line: string) => void;
  /** For the access log's line per request: written at the end of the event-loop turn (line-batcher.ts). */
  private readonly writeBatched: (line: string) => void;

  /** Lines go to `write` when given (tests), else to stdout. */
  constructor(
    private readonly minimum: LogLevel = 'info',
    write?: (line: string) => void,
  ) {
    this.write = write ?? stdoutBatcher().writeNow;
    this.writeBatched = write ?? stdoutBatcher().write;
  }

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    this.emit(typeof context === 'string' && FRAMEWORK_START_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.emit('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.emit('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, rest);
  }

  /** Structured entry: `fields` are merged into the line. `batched`: the access log only (see writeBatched). */
  entry(level: LogLevel, msg: string, fields: Record<string, unknown> = {}, batched = false): void {
    if (LEVELS[level] < LEVELS[this.minimum]) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
    if (batched) this.writeBatched(line);
    else this.write(line);
  }

  private emit(level: LogLevel, message: unknown, rest: unknown[]): void {
    // Nest passes (message, context) or (message, stack, context).
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    const msg = message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    this.entry(level, msg, {
      ...(context ? { context } : {}),
      ...(stack ? { stack } : message instanceof Error ? { stack: message.stack } : {}),
    });
  }
}
