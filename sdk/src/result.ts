import { ClientErrorCode, ErrorCode } from './error-codes';

/** The protocol families; each has its own success rule. */
export type Family = 'connect' | 'standard' | 'legacy';

/** One answer of the service, whatever the family, judged by that family's success rule. */
export interface Result<T = Record<string, unknown>> {
  success: boolean;
  /**
   * On failure the catalog code (always positive: Connect's `-N` is given as `N`; compare with
   * `ErrorCode`), or a `ClientErrorCode` when no usable answer came back (never 0 or 1). On success
   * the family's success code as sent (Connect 1, standard 0 — 1 on the SDK unbind —, legacy 1).
   */
  code: number;
  /** Connect `reason`, standard and legacy `msg`: may be shown to the end user. */
  message: string;
  /** Body `request_id`, else the X-Request-Id header: keep it for the administrator. */
  requestId?: string;
  /** Present on platform faults (SYSTEM_ERROR): keep it for the administrator. */
  errorId?: string;
  /** The answer's `data` on success, every field kept. */
  data?: T;
  /** HTTP status; absent when no answer came back. */
  httpStatus?: number;
  /** Seconds from a Retry-After header (RATE_LIMITED). */
  retryAfterSeconds?: number;
  /**
   * Why the session ended, on a heartbeat's SESSION_INVALID (decisions §18): tell the user "your
   * card was banned" rather than "log in again". `unknown` for a token the service does not know.
   */
  endedBy?: SessionEndReason;
  /** When it ended (`YYYY-MM-DD HH:MM:SS` in the service's time zone); null for `unknown`. */
  endedAt?: string | null;
  /** Why an unbind was refused, on UNBIND_REFUSED (`data.reason`, decisions §21): show when it may be tried again. */
  unbindReason?: UnbindRefusalReason;
  /** `data.retry_at` with it: when an unbind becomes possible (`YYYY-MM-DD HH:MM:SS`, the service's time zone); null: not by waiting. */
  retryAt?: string | null;
  /** The whole answer as received, unknown fields included. */
  body?: Record<string, unknown>;
  /**
   * `data.features` of a successful card answer (login, heartbeat, info: the card type's features,
   * decisions §19), its strings only; absent when the answer carries none (other routes, an older service).
   */
  features?: string[];
  /** `data.trial` of a successful card answer: true for a device's trial card (decisions §21); absent when the answer says nothing. */
  trial?: boolean;
}

/** Every `ended_by` of decisions §18; a newer service may add more, kept as they come. */
export type SessionEndReason =
  | 'expired'
  | 'forced_offline'
  | 'logged_out'
  | 'card_banned'
  | 'card_expired'
  | 'card_no_uses_left'
  | 'device_unbound'
  | 'seat_evicted'
  | 'user_banned'
  | 'user_deleted'
  | 'unknown'
  | (string & {});

/** Every `data.reason` of an UNBIND_REFUSED (decisions §21); a newer service may add more, kept as they come. */
export type UnbindRefusalReason = 'cooldown' | 'limit' | 'disabled' | 'not_bound' | (string & {});

/** An HTTP answer as the transport read it. */
export interface RawAnswer {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
  /** The body bytes as received (the text is their UTF-8 reading). */
  bytes?: Buffer;
}

/** Connect response field names after a per-program customization (default name → configured name). */
export type ConnectFieldNames = Partial<Record<ConnectField, string>>;
export type ConnectField =
  | 'status'
  | 'code'
  | 'reason'
  | 'data'
  | 'request_id'
  | 'token'
  | 'expires_at'
  | 'device_limit'
  | 'server_time'
  | 'machine_code'
  | 'announcement';

/** The success codes a standard-family route can fix for itself (0, or 1 for an unbind). */
export type StandardSuccessCode = 0 | 1;
const STANDARD_SUCCESS_CODES: readonly number[] = [0, 1];

/** The success code a family sends, for an answer that is a success by another marker. */
const SUCCESS_CODES: Readonly<Record<Family, number>> = { connect: 1, standard: 0, legacy: 1 };

const CONNECT_DATA_FIELDS: readonly ConnectField[] = [
  'token',
  'expires_at',
  'device_limit',
  'server_time',
  'machine_code',
  'announcement',
];

/**
 * Judges an answer by its family's rule: Connect `status === true` (never `code`); standard
 * `success`, or where `success` is absent `code` 0 or 1 (a body saying `success: false` is a failure
 * whatever its code); legacy `code === 1`. Anything that is not a JSON object is UNEXPECTED_RESPONSE.
 *
 * `successCode` is a standard-family route's own success code, for routes whose contract fixes it
 * (decisions §13–14: top-up and card info answer 0, the SDK unbind answers 1). Their answers are a
 * success only when `code` is exactly that code and `success`, when a boolean, is true: an unbind
 * answering `code: 0` is not a success. A failure never carries 0 or 1: an answer that fails its
 * rule with such a code is UNEXPECTED_RESPONSE.
 */
export function judge<T>(
  family: Family,
  answer: RawAnswer,
  connectFields: ConnectFieldNames = {},
  successCode?: StandardSuccessCode,
): Result<T> {
  if (successCode !== undefined && (family !== 'standard' || !STANDARD_SUCCESS_CODES.includes(successCode))) {
    throw new TypeError('successCode is a standard-family route rule: 0 or 1');
  }
  const received = parseObject(answer.text);
  const body = family === 'connect' ? renameConnectBody(received, connectFields) : received;
  const common = {
    httpStatus: answer.status,
    requestId: stringOr(body?.request_id) ?? answer.headers.get('x-request-id') ?? undefined,
    ...retryAfter(answer),
  };
  if (body === undefined || (answer.status >= 300 && answer.status < 400)) {
    return { ...common, success: false, code: ClientErrorCode.UNEXPECTED_RESPONSE, message: unexpectedMessage(answer) };
  }
  const success = isSuccess(family, body, successCode);
  const rawCode = typeof body.code === 'number' ? body.code : Number.NaN;
  const message = stringOr(family === 'connect' ? body.reason : body.msg) ?? '';
  if (success) {
    const code = Number.isInteger(rawCode) ? rawCode : SUCCESS_CODES[family];
    const data = objectOr(body.data);
    const features = Array.isArray(data?.features) ? data.features.filter((f): f is string => typeof f === 'string') : undefined;
    const trial = typeof data?.trial === 'boolean' ? { trial: data.trial } : {};
    return { ...common, success, code, message, data: data as T, body: received, ...(features ? { features } : {}), ...trial };
  }
  const errorId = stringOr(body.error_id);
  if (Number.isInteger(rawCode) && Math.abs(rawCode) > 1) {
    const code = Math.abs(rawCode);
    return {
      ...common,
      success,
      code,
      message: message || unexpectedMessage(answer),
      errorId,
      ...sessionEnd(body),
      ...unbindRefusal(code, body),
      body: received,
    };
  }
  const why = Number.isInteger(rawCode)
    ? `Unexpected answer (HTTP ${answer.status}): code ${rawCode} is neither this route's success nor a failure code`
    : message || unexpectedMessage(answer);
  return { ...common, success, code: ClientErrorCode.UNEXPECTED_RESPONSE, message: why, errorId, body: received };
}

/** `data.ended_by` and `data.ended_at` of a refusal that carries them (an ended session's). */
function sessionEnd(body: Record<string, unknown>): Pick<Result, 'endedBy' | 'endedAt'> {
  const data = objectOr(body.data);
  const endedBy = stringOr(data?.ended_by);
  if (endedBy === undefined) return {};
  return { endedBy, endedAt: stringOr(data?.ended_at) ?? null };
}

/** `data.reason` and `data.retry_at` of an UNBIND_REFUSED that carries them. */
function unbindRefusal(code: number, body: Record<string, unknown>): Pick<Result, 'unbindReason' | 'retryAt'> {
  const data = objectOr(body.data);
  const reason = stringOr(data?.reason);
  if (code !== ErrorCode.UNBIND_REFUSED || reason === undefined) return {};
  return { unbindReason: reason, retryAt: stringOr(data?.retry_at) ?? null };
}

function isSuccess(family: Family, body: Record<string, unknown>, successCode?: StandardSuccessCode): boolean {
  switch (family) {
    case 'connect':
      return body.status === true;
    case 'standard':
      if (successCode !== undefined) return body.code === successCode && body.success !== false;
      return typeof body.success === 'boolean' ? body.success : body.code === 0 || body.code === 1;
    case 'legacy':
      return body.code === 1;
    default: {
      const unknown: never = family; // a family added without its success rule is a compile error
      throw new Error(`Unknown family ${String(unknown)}`);
    }
  }
}

/** Maps a customized Connect answer back to the default names (unknown fields stay as they are). */
function renameConnectBody(
  body: Record<string, unknown> | undefined,
  names: ConnectFieldNames,
): Record<string, unknown> | undefined {
  if (body === undefined || Object.keys(names).length === 0) return body;
  const back = (source: Record<string, unknown>, fields: readonly ConnectField[]) => {
    const out = { ...source };
    for (const field of fields) {
      const custom = names[field];
      if (custom === undefined || custom === field || !(custom in source)) continue;
      out[field] = source[custom];
      delete out[custom];
    }
    return out;
  };
  const top = back(body, ['status', 'code', 'reason', 'data', 'request_id']);
  const data = objectOr(top.data);
  return data ? { ...top, data: back(data, CONNECT_DATA_FIELDS) } : top;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return objectOr(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function retryAfter(answer: RawAnswer): { retryAfterSeconds?: number } {
  const seconds = Number(answer.headers.get('retry-after'));
  return answer.headers.get('retry-after') !== null && Number.isFinite(seconds) ? { retryAfterSeconds: seconds } : {};
}

function unexpectedMessage(answer: RawAnswer): string {
  const type = answer.headers.get('content-type') ?? 'no content type';
  if (answer.status >= 300 && answer.status < 400)
    return `Unexpected redirect (HTTP ${answer.status}): check the service address`;
  return `Unexpected answer (HTTP ${answer.status}, ${type}): check the service address`;
}
