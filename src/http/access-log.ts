import { FinishedRequest } from './finished-request';
import { JsonLogger } from '../core/logging/json-logger';

/**
 * One line per request at info. Only what `FinishedRequest` holds is written: the route pattern,
 * never the URL (legacy GET routes carry card keys in the query string), and no header or body.
 */
export function writeAccessLog(logger: JsonLogger, done: FinishedRequest): void {
  logger.entry(
    'info',
    'request',
    {
      request_id: done.requestId,
      method: done.method,
      route: done.route,
      status: done.status,
      duration_ms: Math.round(done.seconds * 1e6) / 1e3,
      family: done.family,
      ...(done.code !== undefined ? { code: done.code } : {}),
    },
    true,
  );
}
