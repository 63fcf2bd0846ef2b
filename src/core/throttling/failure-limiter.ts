import { Injectable } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { ServiceError } from '../errors/service-error';
import { SharedStore } from '../store/shared-store';

export const FAILURE_WINDOW_SECONDS = 60;

/** The fixed window `now` falls in, and the whole seconds until it ends (at least 1). */
export function failureWindow(nowMs: number, windowSeconds = FAILURE_WINDOW_SECONDS): { index: number; retryAfter: number } {
  const windowMs = windowSeconds * 1000;
  const index = Math.floor(nowMs / windowMs);
  return { index, retryAfter: Math.max(1, Math.ceil(((index + 1) * windowMs - nowMs) / 1000)) };
}

/** What is limited: a name for the counters, failures allowed per minute and scope, and the code that counts as one. */
export interface FailurePolicy {
  name: string;
  limit: number;
  failure: ErrorCode;
}

/** `account` (optional) is strict under concurrency; `address` tolerates many callers behind one address. */
export interface FailureScopes {
  account?: string;
  address: string;
}

/**
 * Slows guessing (program-user and admin passwords, legacy transport ciphertexts): at most
 * `limit` failures per minute per account and per client address, counted in the shared store so
 * every instance counts together. Only the policy's failure code counts; over the limit an attempt
 * is refused before it runs, with RATE_LIMITED and Retry-After (the seconds left in the window).
 *
 * The account scope is strict under concurrency: each attempt reserves a slot with an atomic bounded
 * increment (a burst of parallel guesses at one account cannot slip past the limit) and gives it
 * back unless the attempt failed. The address scope only refuses once its failures reach the
 * limit and counts a failure after the fact, so many users behind one address (an office, a
 * carrier NAT) can succeed at the same time.
 */
@Injectable()
export class FailureLimiter {
  constructor(private readonly store: SharedStore) {}

  async guard<T>(policy: FailurePolicy, scopes: FailureScopes, attempt: () => Promise<T>): Promise<T> {
    const { index, retryAfter } = failureWindow(Date.now());
    const ttl = FAILURE_WINDOW_SECONDS * 2;
    const accountKey = scopes.account === undefined ? undefined : key(policy, scopes.account, index);
    const addressKey = key(policy, scopes.address, index);
    const refuse = () => new ServiceError(ErrorCode.RATE_LIMITED, 'Too many failed attempts; retry later', { headers: { 'Retry-After': String(retryAfter) } });
    if (Number((await this.store.get(addressKey)) ?? 0) >= policy.limit) throw refuse();
    if (accountKey && (await this.store.increment(accountKey, ttl, policy.limit)) === null) throw refuse();
    try {
      const result = await attempt();
      if (accountKey) await this.store.decrement(accountKey);
      return result;
    } catch (error) {
      if (error instanceof ServiceError && error.code === policy.failure) await this.store.increment(addressKey, ttl);
      else if (accountKey) await this.store.decrement(accountKey);
      throw error;
    }
  }
}

function key(policy: FailurePolicy, scope: string, window: number): string {
  return `${policy.name}-failures:${scope}:${window}`;
}
