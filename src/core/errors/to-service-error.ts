import { HttpException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from './error-code';
import { ServiceError } from './service-error';

const BY_HTTP_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.BAD_REQUEST,
  401: ErrorCode.UNAUTHENTICATED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.METHOD_NOT_ALLOWED,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.RATE_LIMITED,
};

export interface Classified {
  error: ServiceError;
  /** True when this is a platform fault that must be logged with its stack. */
  fault: boolean;
}

/**
 * Turns anything thrown into a catalog error. Framework HTTP errors (validation, body parsing,
 * unmatched routes) keep their class; everything else is a SYSTEM_ERROR with a fresh error id and
 * no internals in the message.
 */
export function classifyError(thrown: unknown): Classified {
  if (thrown instanceof ServiceError) {
    return { error: thrown, fault: thrown.code === ErrorCode.SYSTEM_ERROR };
  }
  if (isCallersDataError(thrown)) {
    return { error: new ServiceError(ErrorCode.BAD_REQUEST, 'A value in the request cannot be stored'), fault: false };
  }
  const status = httpStatusOf(thrown);
  const code = status !== undefined ? BY_HTTP_STATUS[status] : undefined;
  if (code !== undefined) {
    return { error: new ServiceError(code, undefined, { details: validationDetails(thrown) }), fault: false };
  }
  const errorId = randomUUID();
  return { error: new ServiceError(ErrorCode.SYSTEM_ERROR, undefined, { errorId, cause: thrown }), fault: true };
}

/**
 * PostgreSQL refused a value the caller sent (SQLSTATE class 22, data exception: a byte the
 * encoding refuses, a string or number out of range), or a value too large for an index (54000).
 * The input boundary refuses these before any statement; this keeps a missed one a 400, not a 500.
 */
function isCallersDataError(thrown: unknown): boolean {
  const t = thrown as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = typeof t?.driverError?.code === 'string' ? t.driverError.code : typeof t?.code === 'string' ? t.code : '';
  return /^22[0-9A-Z]{3}$/.test(code) || code === '54000';
}

function httpStatusOf(thrown: unknown): number | undefined {
  if (thrown instanceof HttpException) return thrown.getStatus();
  // Body parsers (Express and Fastify) raise plain errors carrying a 4xx status.
  const t = thrown as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof t?.statusCode === 'number' ? t.statusCode : typeof t?.status === 'number' ? t.status : undefined;
  return status !== undefined && status >= 400 && status < 500 ? status : undefined;
}

/** Field messages from the validation pipe, so a caller learns which field was wrong. */
function validationDetails(thrown: unknown): unknown {
  if (!(thrown instanceof HttpException) || thrown.getStatus() !== 400) return undefined;
  const response = thrown.getResponse() as { message?: unknown };
  return Array.isArray(response?.message) ? response.message : undefined;
}
