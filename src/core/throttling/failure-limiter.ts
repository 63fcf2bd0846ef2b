import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { SharedStore } from '../core/store/shared-store';

export const FAILURE_WINDOW_SECONDS = 60;

/** The fixed window `now` falls in, and the whole seconds until it ends (at least 1). */
export function failureWindow(nowMs: number, windowSeconds = FAILURE_WINDOW_SECONDS): { index: number; retryAfter: number } {
  const windowMs = windowSeconds * 1000;
  const index = Math.floor(nowMs / windowMs);
  return { index, retryAfter: Math.max(1, Math.ceil(((index + 1) * windowMs - nowMs) / 1000)) };
}

/**
 * Slows password guessing on program-user logins (decisions §6): at most
 * APP_USER_LOGIN_ATTEMPTS_PER_MINUTE failed logins per minute per (project, username) and per
 * (project, client address), counted in the shared store so every instance counts together. Only
 * wrong passwords count; over the limit a login is refused before any password check and before
 * the interface quota, with RATE_LIMITED and Retry-After (the seconds left in the window).
 *
 * The account scope is strict under concurrency: each attempt reserves a slot with an atomic bounded
 * increment (a burst of parallel guesses at one account cannot slip past the limit) and gives it
 * back unless the password was wrong. The address scope only refuses once its failures reach the
 * limit and counts a failure after the fact, so many users behind one address (an office, a
 * carrier NAT) can log in at the same time.
 */
@Injectable()
export class LoginFailureLimiter {
  constructor(
    private readonly store: SharedStore,
    private readonly config: AppConfig,
  ) {}

  async guard<T>(scopes: { account: string; address: string }, attempt: () => Promise<T>): Promise<T> {
    const limit = this.config.APP_USER_LOGIN_ATTEMPTS_PER_MINUTE;
    const { index, retryAfter } = failureWindow(Date.now());
    const ttl = FAILURE_WINDOW_SECONDS * 2;
    const accountKey = key(scopes.account, index);
    const addressKey = key(scopes.address, index);
    const refuse = () => new ServiceError(ErrorCode.RATE_LIMITED, 'Too many failed logins; retry later', { headers: { 'Retry-After': String(retryAfter) } });
    if (Number((await this.store.get(addressKey)) ?? 0) >= limit) throw refuse();
    if ((await this.store.increment(accountKey, ttl, limit)) === null) throw refuse();
    try {
      const result = await attempt();
      await this.store.decrement(accountKey);
      return result;
    } catch (error) {
      if (error instanceof ServiceError && error.code === ErrorCode.BAD_CREDENTIALS) await this.store.increment(addressKey, ttl);
      else await this.store.decrement(accountKey);
      throw error;
    }
  }
}

function key(scope: string, window: number): string {
  return `app-user-login:${scope}:${window}`;
}
