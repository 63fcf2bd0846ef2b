import type { Duplex } from 'node:stream';
import { familyOfPath, pathOf } from './envelope/family';
import { renderFailure } from './envelope/render';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { chooseRequestId } from './request-context';

interface ParserError extends Error {
  code?: string;
  /** The bytes read so far: a Buffer from Node's parser (Fastify's type for it says otherwise). */
  rawPacket?: unknown;
}

/** Parser errors that have a status of their own; every other one is a plain 400. */
const STATUS_OF: Readonly<Record<string, [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/** The path of the request line in what the parser had read, or '' when there is none to read. */
export function pathOfRawPacket(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  const line = rawPacket.subarray(0, Math.min(rawPacket.length, 8192)).toString('latin1').split('\r\n', 1)[0];
  const target = line.split(' ')[1] ?? '';
  return target.startsWith('/') ? pathOf(target) : '';
}

/**
 * The answer to bytes that are not HTTP (a broken request line or header, conflicting lengths, a
 * head too large), which Node's parser refuses before any request exists: in the envelope of the
 * family its path names, with a request id and the security headers, then the connection is
 * closed. Node's own answer has no body and Fastify's is its own JSON; a client parses neither.
 * The same handler serves both adapters (Node's `clientError` event, Fastify's `clientErrorHandler`).
 */
export function answerClientError(securityHeaders: Readonly<Record<string, string>>) {
  return (error: ParserError, socket: Duplex): void => {
    // A reset connection has nobody to answer; an answer under way cannot be followed by another.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason] = STATUS_OF[error.code ?? ''] ?? [400, 'Bad Request'];
    const message =
      status === 431
        ? 'The request headers are too large'
        : status === 408
          ? 'The request took too long to arrive'
          : 'The request is not valid HTTP';
    const requestId = chooseRequestId(undefined);
    const body = JSON.stringify(
      renderFailure(familyOfPath(pathOfRawPacket(error.rawPacket)), new ServiceError(ErrorCode.BAD_REQUEST, message), requestId),
    );
    const head = [
      `HTTP/1.1 ${status} ${reason}`,
      ...Object.entries(securityHeaders).map(([name, value]) => `${name}: ${value}`),
      `x-request-id: ${requestId}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  };
}
