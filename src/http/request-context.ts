import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { RequestMemo } from '../core/request-memo';
import { clientAddressOf } from './client-ip';

/** The per-request state of the HTTP layer; its `memo` is all a domain service may see of it. */
export interface RequestContext extends RequestMemo {
  requestId: string;
  /** The caller's address: the socket peer, or X-Forwarded-For behind a trusted proxy only. */
  clientIp: string;
  /** Set when a trusted proxy's X-Forwarded-For names no client address: the input boundary refuses the request. */
  unreadableClientAddress?: string;
  /** What to undo if the request ends in a platform fault (see `onFault`). */
  undoOnFault?: Array<() => Promise<void>>;
  /**
   * The code the envelope answered with (`recordAnswer`): the family's success code, or the catalog
   * code of a failure. Read once the request finishes, by the access log and the metrics.
   */
  resultCode?: number;
  /** Whether the answer was a failure envelope (client families answer card refusals with HTTP 200). */
  failed?: boolean;
  /**
   * The client family of a card login that wrote its own login-log row, as its answer or refusal
   * said (`recordAnswer`): counted in card_logins_total, and the request log writes no second row.
   */
  cardLoginFamily?: string;
  /** What the request log records of a client request of a known program (`noteClientRequest`). */
  clientRecord?: ClientRecord;
  /** Connect customization: the answer's field names, renamed (envelope/response-renames.ts). */
  responseRenames?: Readonly<Record<string, string>>;
}

/** A client request as the request log keeps it (decisions §22): filled in as the request learns it. */
export interface ClientRecord {
  projectId: string;
  interface?: string;
  device?: string;
  /** The card the request acted on, where the route knows it without a query (a card session's heartbeat). */
  cardId?: number;
  /** What the deciding rule said beyond its code (e.g. which blacklist entry matched). */
  reason?: string;
}

/** Notes what the request log should say of this request; nothing outside a request. */
export function noteClientRequest(context: RequestContext | undefined, fields: Partial<ClientRecord>): void {
  if (!context) return;
  if (fields.projectId) context.clientRecord = { ...context.clientRecord, ...fields, projectId: fields.projectId };
  else if (context.clientRecord) Object.assign(context.clientRecord, fields);
}

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
 * X-Request-Id header, settles the client address, and keeps them on the request (`requestContextOf`).
 * The context travels explicitly (on the request, in a `ClientCall`), not through an
 * AsyncLocalStorage: on Node 20 one of those turns on promise hooks for every promise of the
 * process, 6.8 % of a Fastify login's CPU in the hooks alone (docs/performance-history.md, sixth part).
 * `echoRequestId: false` where the adapter sets the header on its own reply (Fastify, create-app.ts).
 */
export function requestContextMiddleware(trustedProxies: ReadonlySet<string> = new Set(), { echoRequestId = true } = {}) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const client = clientAddressOf(req, trustedProxies);
    const context: RequestContext = {
      requestId: chooseRequestId(req.headers['x-request-id']),
      clientIp: client.ip,
      unreadableClientAddress: client.unreadable,
    };
    (req as unknown as WithContext)[CONTEXT_KEY] = context;
    if (echoRequestId) res.setHeader('X-Request-Id', context.requestId);
    next();
  };
}

/** The context of an adapter request (Express req, Fastify request or raw IncomingMessage). */
export function requestContextOf(req: unknown): RequestContext {
  const r = req as WithContext | undefined;
  return r?.[CONTEXT_KEY] ?? r?.raw?.[CONTEXT_KEY] ?? { requestId: chooseRequestId(undefined), clientIp: '' };
}

/** The request id and client address of the current request, as a handler parameter. */
export const ClientContext = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  requestContextOf(ctx.switchToHttp().getRequest()),
);

/** The request id of an adapter request (Express req, Fastify request or raw IncomingMessage). */
export function requestIdOf(req: unknown): string {
  return requestContextOf(req).requestId;
}

/** What an answer or a refusal says of the request beside its code (a `ClientReply`, a `ServiceError`). */
export interface AnswerNotes {
  /** The card the request acted on, for the request log. */
  cardId?: number;
  /** The family of a card login that wrote its own login-log row. */
  loggedLogin?: string;
}

/**
 * The one record of what a request was answered (the envelope around each handler and the exception
 * filter call it as they render), so the access log and the metrics read the same code and never
 * re-derive it; with what the domain said of it (its reply's or its refusal's notes): the card it
 * acted on, and whether it was a card login that logged itself. Domain services never write here.
 */
export function recordAnswer(req: unknown, code: number | undefined, failed: boolean, notes?: AnswerNotes | null): void {
  const context = requestContextOf(req);
  context.resultCode = code;
  context.failed = failed;
  if (notes?.cardId !== undefined) noteClientRequest(context, { cardId: notes.cardId });
  if (notes?.loggedLogin !== undefined) context.cardLoginFamily = notes.loggedLogin;
}

/**
 * Registers work to undo when a request ends in a platform fault (SYSTEM_ERROR): a quota unit is
 * spent only by a request that was answered. The envelope around each handler runs them. Outside a
 * request (no context) there is nobody to answer, and nothing to register.
 */
export function onFault(context: RequestContext | undefined, undo: () => Promise<void>): void {
  if (context) (context.undoOnFault ??= []).push(undo);
}

/** Runs (once) what `onFault` registered for this request; failures to undo are swallowed by design. */
export async function undoAfterFault(req: unknown): Promise<void> {
  const context = requestContextOf(req);
  const undo = context.undoOnFault ?? [];
  context.undoOnFault = undefined;
  await Promise.all(undo.map((fn) => fn().catch(() => undefined)));
}
