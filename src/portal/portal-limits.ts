import { Injectable } from '@nestjs/common';
import { ClientCall } from '../access/client-call';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { SharedStore } from '../core/store/shared-store';
import { failureWindow, FailureLimiter, FAILURE_WINDOW_SECONDS } from '../core/throttling/failure-limiter';

/**
 * The portal's limits (decisions §14), counted in the shared store across instances: unknown card
 * keys per client address (guessing), and calls per card whatever their outcome (hammering one card).
 */
@Injectable()
export class PortalLimits {
  constructor(
    private readonly limiter: FailureLimiter,
    private readonly store: SharedStore,
    private readonly config: AppConfig,
  ) {}

  async run<T>(call: ClientCall, cardKey: string, work: () => Promise<T>): Promise<T> {
    const policy = { name: 'portal', limit: this.config.PORTAL_FAILURES_PER_MINUTE, failure: ErrorCode.CARD_INVALID };
    return this.limiter.guard(policy, { address: call.ip }, async () => {
      const { index, retryAfter } = failureWindow(Date.now());
      const perCard = `portal-card:${call.program.project.id}:${cardKey}:${index}`;
      if ((await this.store.increment(perCard, FAILURE_WINDOW_SECONDS * 2, this.config.PORTAL_CALLS_PER_CARD_PER_MINUTE)) === null) {
        throw new ServiceError(ErrorCode.RATE_LIMITED, undefined, { headers: { 'Retry-After': String(retryAfter) } });
      }
      return work();
    });
  }
}
