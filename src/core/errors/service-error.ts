import { ERROR_CATALOG, ErrorCode } from './error-code';

export interface ServiceErrorOptions {
  /** Field-level detail for the caller (never internals). */
  details?: unknown;
  /**
   * What a client-family refusal tells beside its code, as the envelope's `data` (standard and
   * legacy; Connect failures carry none): why a session ended (decisions §18), when to retry.
   */
  data?: Record<string, unknown>;
  /** Extra response headers, e.g. Retry-After or Allow. */
  headers?: Record<string, string>;
  /** Set only on SYSTEM_ERROR: the id also written to the log line with the stack. */
  errorId?: string;
  cause?: unknown;
}

/** The typed exception every layer throws; each family's filter renders it in its own envelope. */
export class ServiceError extends Error {
  readonly details?: unknown;
  readonly data?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly errorId?: string;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    options: ServiceErrorOptions = {},
  ) {
    super(message ?? ERROR_CATALOG[code].message, { cause: options.cause });
    this.name = 'ServiceError';
    this.details = options.details;
    this.data = options.data;
    this.headers = options.headers;
    this.errorId = options.errorId;
  }

  get httpStatus(): number {
    return ERROR_CATALOG[this.code].http;
  }
}
