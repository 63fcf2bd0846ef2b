import type { ClientFamilyName } from '../client-families';
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
  /** The card a refusal concerns, once known (`aboutCard`): the request log's per-card timeline shows it. */
  cardId?: number;
  /**
   * The family of the card login whose own login-log row records this refusal (`ofLoggedLogin`): the
   * HTTP layer counts it in card_logins_total and writes the request no request-log row.
   */
  loggedLogin?: ClientFamilyName;

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

  /** Names the card the refusal concerns (the first one named stays); none for `null`. */
  concerning(cardId: number | null): this {
    if (cardId !== null) this.cardId ??= cardId;
    return this;
  }

  /** Says that a card login of `family` wrote this refusal's login-log row (the first family named stays). */
  ofLoggedLogin(family: ClientFamilyName): this {
    this.loggedLogin ??= family;
    return this;
  }

  get httpStatus(): number {
    return ERROR_CATALOG[this.code].http;
  }
}

/**
 * Runs `work`, which acts on the card `cardId`: a refusal it throws names the card, so the request
 * that was refused still shows on the card's timeline (the HTTP layer records it; the domain knows no request).
 */
export async function aboutCard<T>(cardId: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServiceError) error.concerning(cardId);
    throw error;
  }
}
