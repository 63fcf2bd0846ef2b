import { Injectable } from '@nestjs/common';
import { ClientCall } from '../access/client-call';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError, ServiceErrorOptions } from '../core/errors/service-error';
import { FailureLimiter, FailurePolicy } from '../core/throttling/failure-limiter';

/**
 * A key that matched no card, answered with another code than CARD_INVALID (a top-up key answers
 * TOPUP_REFUSED): still a wrong guess for the guessing limit.
 */
export class CardKeyMiss extends ServiceError {
  constructor(code: ErrorCode, message?: string, options?: ServiceErrorOptions) {
    super(code, message, options);
  }
}

/** A wrong guess at a card key: CARD_INVALID (no card, or a consumed top-up card), or a `CardKeyMiss`. */
export function isCardKeyMiss(error: unknown): boolean {
  return error instanceof CardKeyMiss || (error instanceof ServiceError && error.code === ErrorCode.CARD_INVALID);
}

/**
 * The guessing limit of every route that looks a card key up (decisions §23): keys that match no
 * card, per program and client address, at most the project's `card_guess_limit_per_minute` a
 * minute; beyond it RATE_LIMITED with Retry-After before any lookup. Counted by the one failure
 * limiter, atomically (failure-limiter.ts): a success costs one read of the shared store.
 */
@Injectable()
export class CardGuesses {
  constructor(private readonly limiter: FailureLimiter) {}

  guard<T>(call: Pick<ClientCall, 'program' | 'ip'>, attempt: () => Promise<T>): Promise<T> {
    const { project } = call.program;
    const policy: FailurePolicy = { name: 'card-guess', limit: project.cardGuessLimitPerMinute, failure: isCardKeyMiss };
    return this.limiter.guard(policy, { address: call.ip, within: project.id }, attempt);
  }
}
