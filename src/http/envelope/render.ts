import { unreachable } from '../../common/unreachable';
import type { ClientFamilyName } from '../../core/client-families';
import { ServiceError } from '../../core/errors/service-error';
import { Family } from './family';

/** What a client-family handler returns: `data` plus optional top-level extras (token, statecode...). */
export interface ClientReply {
  /** Human-readable message (Connect `reason`, standard and legacy `msg`). */
  message?: string;
  data?: unknown;
  /** Extra top-level fields of the standard family (token, statecode). */
  extras?: Record<string, unknown>;
  /** Success code where a family's operation uses another one (standard-family unbind answers 1). */
  successCode?: number;
  /** The card the request acted on: recorded for the request log's per-card timeline, never answered. */
  cardId?: number;
  /**
   * The family of the card login this answers, which wrote its own login-log row (`CardLoginService.answer`):
   * counted in card_logins_total, and no request-log row besides; never answered.
   */
  loggedLogin?: ClientFamilyName;
}

const DEFAULT_MESSAGE = 'ok';

/** The code a success answer carries in its family (admin answers carry none). */
export function successCodeOf(family: Family, reply: unknown): number | undefined {
  switch (family) {
    case 'connect':
    case 'legacy':
      return 1;
    case 'standard':
      return (reply as ClientReply | null | undefined)?.successCode ?? 0;
    case 'admin':
      return undefined;
    default:
      return unreachable(family, 'envelope family');
  }
}

/** Success body of a family. The success markers are written last so no payload can override them. */
export function renderSuccess(family: Family, reply: unknown, requestId: string): unknown {
  if (family === 'admin') return reply;
  const r = (reply ?? {}) as ClientReply;
  const message = r.message ?? DEFAULT_MESSAGE;
  switch (family) {
    case 'connect':
      return { status: true, code: successCodeOf(family, r), reason: message, data: r.data ?? {}, request_id: requestId };
    case 'standard':
      return {
        ...r.extras,
        code: successCodeOf(family, r),
        success: true,
        msg: message,
        data: r.data ?? {},
        request_id: requestId,
      };
    case 'legacy':
      return { code: successCodeOf(family, r), msg: message, data: r.data ?? {}, request_id: requestId };
    default:
      return unreachable(family, 'envelope family');
  }
}

/** Failure body of a family; `error_id` only on platform faults. */
export function renderFailure(family: Family, error: ServiceError, requestId: string): unknown {
  const errorId = error.errorId ? { error_id: error.errorId } : {};
  switch (family) {
    case 'connect':
      return { status: false, code: -error.code, reason: error.message, request_id: requestId, ...errorId };
    case 'standard':
      return {
        code: error.code,
        success: false,
        msg: error.message,
        request_id: requestId,
        ...errorId,
        ...details(error),
        ...data(error),
      };
    case 'legacy':
      return { code: error.code, msg: error.message, request_id: requestId, ...errorId, ...details(error), ...data(error) };
    case 'admin':
      return {
        error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) },
        request_id: requestId,
        ...errorId,
      };
    default:
      return unreachable(family, 'envelope family');
  }
}

function data(error: ServiceError): Record<string, unknown> {
  return error.data !== undefined ? { data: error.data } : {};
}

function details(error: ServiceError): Record<string, unknown> {
  return error.details !== undefined ? { details: error.details } : {};
}
