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
 * (project, client address), counted in the shared store so every instance counts together.
 *
 * Only failures count, and strictly under concurrency: each attempt first reserves a slot with an
 * atomic bounded increment (a burst of parallel guesses cannot slip past the limit), and an attempt
 * that turns out not to be a wrong password (success, banned, machine mismatch, a gate refusal)
 * gives its slot back. Over the limit the login is
 * refused, before any password check and before the interface quota, with RATE_LIMITED and
 * Retry-After (the seconds left in the window); a refused attempt counts nothing.
 */
@Injectable()
export class LoginFailureLimiter {
  constructor(
    private readonly store: SharedStore,
    private readonly config: AppConfig,
  ) {}

  async guard<T>(scopes: string[], attempt: () => Promise<T>): Promise<T> {
    const limit = this.config.APP_USER_LOGIN_ATTEMPTS_PER_MINUTE;
    const { index, retryAfter } = failureWindow(Date.now());
    const ttl = FAILURE_WINDOW_SECONDS * 2;
    const reserved: string[] = [];
    const refund = () => Promise.all(reserved.map((scope) => this.store.decrement(key(scope, index))));
    for (const scope of scopes) {
      if ((await this.store.increment(key(scope, index), ttl, limit)) === null) {
        await refund();
        throw new ServiceError(ErrorCode.RATE_LIMITED, 'Too many failed logins; retry later', { headers: { 'Retry-After': String(retryAfter) } });
      }
      reserved.push(scope);
    }
    try {
      const result = await attempt();
      await refund();
      return result;
    } catch (error) {
      if (!(error instanceof ServiceError && error.code === ErrorCode.BAD_CREDENTIALS)) await refund();
      throw error;
    }
  }
}

function key(scope: string, window: number): string {
  return `app-user-login:${scope}:${window}`;
}
