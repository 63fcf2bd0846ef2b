import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();
const VALID_INCOMING_ID = /^[A-Za-z0-9_.:-]{8,64}$/;
const CONTEXT_KEY = Symbol.for('cardkey.requestContext');

type WithContext = { [CONTEXT_KEY]?: RequestContext; raw?: WithContext };

/**
 * Keeps a valid incoming X-Request-Id (8-64 of [A-Za-z0-9_.:-]); anything else is replaced,
 * including several values (Node joins repeated headers with ", ", which is invalid too).
 */
export function chooseRequestId(incoming: unknown): string {
  return typeof incoming === 'string' && VALID_INCOMING_ID.test(incoming) ? incoming : randomUUID().replace(/-/g, '');
}

/**
 * Plain Node middleware (works under Express and Fastify): picks the request id, echoes it in the
 * X-Request-Id header and makes it visible to every log line of this request.
 */
export function requestContextMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const context: RequestContext = { requestId: chooseRequestId(req.headers['x-request-id']) };
  (req as unknown as WithContext)[CONTEXT_KEY] = context;
  res.setHeader('X-Request-Id', context.requestId);
  storage.run(context, next);
}

/** The request id of an adapter request (Express req, Fastify request or raw IncomingMessage). */
export function requestIdOf(req: unknown): string {
  const r = req as WithContext | undefined;
  return r?.[CONTEXT_KEY]?.requestId ?? r?.raw?.[CONTEXT_KEY]?.requestId ?? currentRequestId() ?? chooseRequestId(undefined);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
