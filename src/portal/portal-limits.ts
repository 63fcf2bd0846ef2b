import { Injectable } from '@nestjs/common';
import { ClientCall } from '../access/client-call';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { SharedStore } from '../core/store/shared-store';
import { isCardKeyMiss } from '../cards/card-guesses';
import { failureWindow, FailureLimiter, FailurePolicy, FAILURE_WINDOW_SECONDS } from '../core/throttling/failure-limiter';

/**
 * What the interface gate refuses a known program with before any card is looked up. The portal
 * answers them CARD_INVALID, as it answers an unknown program, so that a guesser learns nothing
 * about a program from a wrong key (decisions §23); a holder of a good card gets the same answer,
 * which is all a program that cannot be used may tell.
 */
const PROGRAM_REFUSALS: ReadonlySet<ErrorCode> = new Set([
  ErrorCode.PROGRAM_DISABLED,
  ErrorCode.AUTHOR_DISABLED,
  ErrorCode.PACKAGE_NOT_ENABLED,
  ErrorCode.VERIFICATION_SWITCH_OFF,
  ErrorCode.INTERFACE_DISABLED,
  ErrorCode.INTERFACE_NOT_AUTHORIZED,
  ErrorCode.QUOTA_EXCEEDED,
]);

/**
 * The portal's limits (decisions §14), counted in the shared store across instances: wrong guesses
 * (card keys matching no card, top-up keys matching no card, unknown or closed programs)
 * per client address whatever the program, atomically (failure-limiter.ts), and calls per card
 * whatever their outcome (hammering one card). The card routes' own per-program limit
 * (card-guesses.ts) applies inside.
 */
@Injectable()
export class PortalLimits {
  constructor(
    private readonly limiter: FailureLimiter,
    private readonly store: SharedStore,
    private readonly config: AppConfig,
  ) {}

  async run<T>(call: ClientCall, cardKey: string, work: () => Promise<T>): Promise<T> {
    return this.limiter.guard(this.policy(), { address: call.ip }, async () => {
      const { index, retryAfter } = failureWindow(Date.now());
      const perCard = `portal-card:${call.program.project.id}:${cardKey}:${index}`;
      if (
        (await this.store.increment(perCard, FAILURE_WINDOW_SECONDS * 2, this.config.PORTAL_CALLS_PER_CARD_PER_MINUTE)) === null
      ) {
        throw new ServiceError(ErrorCode.RATE_LIMITED, undefined, { headers: { 'Retry-After': String(retryAfter) } });
      }
      try {
        return await work();
      } catch (error) {
        if (error instanceof ServiceError && PROGRAM_REFUSALS.has(error.code)) throw new ServiceError(ErrorCode.CARD_INVALID);
        throw error;
      }
    });
  }

  /** A program that does not exist or has its portal off: answered and counted as a wrong key. */
  noProgram(address: string): Promise<never> {
    return this.limiter.guard(this.policy(), { address }, () => Promise.reject(new ServiceError(ErrorCode.CARD_INVALID)));
  }

  private policy(): FailurePolicy {
    return { name: 'portal', limit: this.config.PORTAL_FAILURES_PER_MINUTE, failure: isCardKeyMiss };
  }
}
