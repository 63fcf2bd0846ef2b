import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ErrorCode } from '../errors/error-code';
import { ServiceError } from '../errors/service-error';
import { SharedStore } from '../store/shared-store';
import { addressKey } from './address-key';

export const FAILURE_WINDOW_SECONDS = 60;

/** The fixed window `now` falls in, and the whole seconds until it ends (at least 1). */
export function failureWindow(nowMs: number, windowSeconds = FAILURE_WINDOW_SECONDS): { index: number; retryAfter: number } {
  const windowMs = windowSeconds * 1000;
  const index = Math.floor(nowMs / windowMs);
  return { index, retryAfter: Math.max(1, Math.ceil(((index + 1) * windowMs - nowMs) / 1000)) };
}

/**
 * What is limited: a name for the counters, failures allowed per minute and scope, and what counts
 * as one: a code, or a test of the error (a refusal answered with one code that only sometimes
 * means a wrong guess).
 */
export interface FailurePolicy {
  name: string;
  limit: number;
  failure: ErrorCode | ((error: unknown) => boolean);
}

/**
 * `account` (optional) is strict under concurrency; `address` (the client's address, counted as
 * `addressKey` says) tolerates many callers behind one address, within `within` (a program) if given.
 */
export interface FailureScopes {
  account?: string;
  address: string;
  within?: string;
}

/**
 * Slows guessing (card keys, program-user and admin passwords, legacy transport ciphertexts): at
 * most `limit` failures per minute per account and per client address, counted in the shared store
 * so every instance counts together. Only the policy's failures count; over the limit an attempt is
 * refused before it runs, with RATE_LIMITED and Retry-After (the seconds left in the window).
 *
 * Both scopes are atomic, so a burst of parallel guesses gets no more than `limit` failures answered:
 * - The account scope reserves a slot before the attempt with an atomic bounded increment and gives
 *   it back unless the attempt failed: no more than `limit` attempts at one account are in flight.
 * - The address scope reads its count before the attempt (refusing once it is full) and counts a
 *   failure after it with an atomic bounded increment; a failure that does not fit is answered
 *   RATE_LIMITED instead of its verdict. Many users behind one address (an office, a carrier NAT, a
 *   benchmark) can thus succeed at the same time, and a success costs one read of the store. What
 *   this accepts: the attempts of one burst that all read the count before any failure was counted
 *   all run, so a success among them (a right guess) is answered as one (docs/decisions.md).
 */
@Injectable()
export class FailureLimiter {
  constructor(
    private readonly store: SharedStore,
    private readonly config: AppConfig,
  ) {}

  async guard<T>(policy: FailurePolicy, scopes: FailureScopes, attempt: () => Promise<T>): Promise<T> {
    const { index, retryAfter } = failureWindow(Date.now());
    const ttl = FAILURE_WINDOW_SECONDS * 2;
    const accountKey = scopes.account === undefined ? undefined : key(policy, `account:${scopes.account}`, index);
    const address = addressKey(scopes.address, this.config.RATE_LIMIT_IPV6_PREFIX);
    const perAddress = key(policy, `address:${scopes.within ?? ''}:${address}`, index);
    const refuse = () =>
      new ServiceError(ErrorCode.RATE_LIMITED, 'Too many failed attempts; retry later', {
        headers: { 'Retry-After': String(retryAfter) },
      });
    if (Number((await this.store.get(perAddress)) ?? 0) >= policy.limit) throw refuse();
    if (accountKey && (await this.store.increment(accountKey, ttl, policy.limit)) === null) throw refuse();
    try {
      const result = await attempt();
      if (accountKey) await this.store.decrement(accountKey);
      return result;
    } catch (error) {
      if (!isFailure(policy, error)) {
        if (accountKey) await this.store.decrement(accountKey);
        throw error;
      }
      if ((await this.store.increment(perAddress, ttl, policy.limit)) === null) throw refuse();
      throw error;
    }
  }
}

function isFailure(policy: FailurePolicy, error: unknown): boolean {
  return typeof policy.failure === 'function'
    ? policy.failure(error)
    : error instanceof ServiceError && error.code === policy.failure;
}

function key(policy: FailurePolicy, scope: string, window: number): string {
  return `${policy.name}-failures:${scope}:${window}`;
}
