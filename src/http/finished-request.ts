import type { IncomingMessage, ServerResponse } from 'node:http';
import { familyOfPath, pathOf } from './envelope/family';
import { requestContextOf } from './request-context';

/**
 * How a request ended, for the metrics: `refused` is a business refusal answered with HTTP 200
 * (client families answer card refusals so), `rejected` any other 4xx, `fault` a 5xx.
 */
export type Outcome = 'ok' | 'refused' | 'rejected' | 'fault';

/** One finished request as the access log and the metrics see it (built once per request). */
export interface FinishedRequest {
  method: string;
  /** The matched route pattern (`/connect/:programId`), never the URL: query strings carry card keys. */
  route: string;
  /** The route family of the metrics: connect, standard, legacy, admin, or ops (health, metrics, docs). */
  family: string;
  status: number;
  seconds: number;
  requestId: string;
  /** The code the envelope answered with (request-context `recordAnswer`); none for raw answers. */
  code: number | undefined;
  failed: boolean;
  outcome: Outcome;
  /** The client family when the request was a card login attempt. */
  cardLoginFamily: string | undefined;
}

const ROUTE_PATTERN = Symbol.for('cardkey.routePattern');

type RoutedRequest = IncomingMessage & { [ROUTE_PATTERN]?: string; route?: { path?: unknown } };

/** Fastify knows the matched pattern on its own request only: its hook copies it onto the Node request. */
export function markRoutePattern(raw: IncomingMessage, pattern: string | undefined): void {
  if (pattern) (raw as RoutedRequest)[ROUTE_PATTERN] = pattern;
}

/** The matched route pattern (Fastify's, copied by `markRoutePattern`, or Express's `req.route`), or the bare path. */
export function routePatternOf(req: IncomingMessage): string {
  const routed = req as RoutedRequest;
  const pattern = routed[ROUTE_PATTERN] ?? routed.route?.path;
  return typeof pattern === 'string' ? pattern : pathOf(req.url ?? '/');
}

/** Health, metrics and the API docs are counted apart from the four families. */
function metricsFamilyOf(path: string): string {
  const routed =
    path.startsWith('/admin') || path.startsWith('/connect') || path.startsWith('/conncet') || path.startsWith('/api');
  return routed ? familyOfPath(path) : 'ops';
}

export function describeFinished(req: IncomingMessage, res: ServerResponse, started: bigint): FinishedRequest {
  const context = requestContextOf(req);
  const status = res.statusCode;
  const failed = context.failed === true;
  return {
    method: req.method ?? 'GET',
    route: routePatternOf(req),
    family: metricsFamilyOf(pathOf(req.url ?? '/')),
    status,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    requestId: context.requestId,
    code: context.resultCode,
    failed,
    outcome: status >= 500 ? 'fault' : status >= 400 ? 'rejected' : failed ? 'refused' : 'ok',
    cardLoginFamily: context.cardLoginFamily,
  };
}
