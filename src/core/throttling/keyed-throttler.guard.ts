import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler/dist/throttler.guard.interface';
import { AppConfig } from '../../config/app-config';
import { ErrorCode } from '../errors/error-code';
import { ServiceError } from '../errors/service-error';
import { clientIpOf, parseTrustedProxies } from '../http/client-ip';

/**
 * @nestjs/throttler keyed by the real client address (socket, or X-Forwarded-For only behind a
 * configured proxy) plus, when the body names one, the account: guessing one account's password is
 * slowed without one busy office locking everyone out. Storage is Redis when configured.
 * Refusals are RATE_LIMITED in the route's family envelope, with Retry-After.
 */
@Injectable()
export class KeyedThrottlerGuard extends ThrottlerGuard {
  @Inject(AppConfig) private readonly config!: AppConfig;
  private trusted?: Set<string>;

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    this.trusted ??= parseTrustedProxies(this.config.TRUST_PROXY);
    const body = req.body as { username?: unknown } | undefined;
    const account = typeof body?.username === 'string' ? body.username.toLowerCase().slice(0, 64) : '';
    return `${clientIpOf(req, this.trusted)}|${account}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new ServiceError(ErrorCode.RATE_LIMITED, undefined, { headers: { 'Retry-After': String(Math.max(1, detail.timeToBlockExpire)) } });
  }
}
