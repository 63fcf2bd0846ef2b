import { applyDecorators, ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail, ThrottlerOptions, ThrottlerStorage } from '@nestjs/throttler';
import { ApiExtension } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { requestContextOf } from '../request-context';
import { CONTRACT_EXTENSIONS } from '../openapi/api-contract';
import { RateScope, RouteClass, throttlerName } from '../../core/throttling/rate-limits';
import { addressKey } from '../../core/throttling/address-key';
import { AppConfig } from '../../config/app-config';

/** What a throttler storage answers (the package does not export its name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;
type Request = Record<PropertyKey, unknown> & { method?: string };

/** The account, program or card a request is counted against beside its address; undefined = address only. */
export type RateKeyOf = (request: Request) => string | undefined;
/** A route that serves several classes (the legacy aggregate): the class of this request, or null for none. */
export type RouteClassOf = (request: Request) => RouteClass | null;

interface RateLimitRoute {
  routeClass: RouteClass | RouteClassOf;
  keyOf?: RateKeyOf;
  /** Only requests that change something count (GET and HEAD pass uncounted). */
  writesOnly?: boolean;
}

const RATE_LIMIT = 'cardkey:rate-limit';
/** Set once a request was counted: a route under a class-level and a method-level limit counts once. */
const COUNTED = Symbol('cardkey.rateCounted');
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Limits a route class's plain request rate (successes included) with `@nestjs/throttler`, per
 * client address and per the route's key. Place it above the family's own guard decorator on a
 * method (method guards run bottom-up; class guards first) so that the key scope counts only
 * requests the family's guard admitted. Failures are the FailureLimiter's.
 */
export const RateLimit = (routeClass: RateLimitRoute['routeClass'], keyOf?: RateKeyOf, options: { writesOnly?: boolean } = {}) =>
  applyDecorators(
    SetMetadata(RATE_LIMIT, { routeClass, keyOf, ...options } satisfies RateLimitRoute),
    ApiExtension(CONTRACT_EXTENSIONS.rateLimited, options.writesOnly ? 'writes' : 'always'),
    UseGuards(RouteRateGuard),
  );

/**
 * ThrottlerGuard for the named limits of rate-limits.ts: counts the request in its class's
 * address scope, then its key scope (a refused address is not charged to the account), answers
 * the IETF draft headers `RateLimit-Limit`, `-Remaining` and `-Reset` of the scope nearest its
 * limit, and refuses with `10302 RATE_LIMITED` (429, `Retry-After`) in the family's envelope.
 */
@Injectable()
export class RouteRateGuard extends ThrottlerGuard {
  private named = new Map<string, ThrottlerOptions>();
  /** By property: the constructor is ThrottlerGuard's. Read for how an address is counted (addressKey). */
  @Inject(AppConfig) private readonly config!: AppConfig;

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.named = new Map(this.throttlers.map((throttler) => [throttler.name!, throttler]));
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context);
    const request = req as Request;
    if (request[COUNTED]) return true;
    const route = this.reflector.getAllAndOverride<RateLimitRoute>(RATE_LIMIT, [context.getHandler(), context.getClass()]);
    const routeClass = typeof route.routeClass === 'function' ? route.routeClass(request) : route.routeClass;
    if (!routeClass || (route.writesOnly && READS.has(String(request.method).toUpperCase()))) return true;
    request[COUNTED] = true;
    const trackers: Record<RateScope, string | undefined> = {
      address: addressKey(requestContextOf(request).clientIp, this.config.RATE_LIMIT_IPV6_PREFIX),
      key: route.keyOf?.(request),
    };
    let nearest: { limit: number; record: ThrottlerStorageRecord } | undefined;
    for (const scope of ['address', 'key'] as const) {
      const throttler = this.named.get(throttlerName(routeClass, scope));
      const tracker = trackers[scope];
      if (!throttler || tracker === undefined) continue;
      const limit = Number(throttler.limit);
      const ttl = Number(throttler.ttl);
      const key = this.generateKey(context, tracker, throttler.name!);
      const record = await this.storageService.increment(key, ttl, limit, ttl, throttler.name!);
      if (record.isBlocked) await this.throwThrottlingException(context, { ...record, limit, ttl, key, tracker });
      if (!nearest || limit - record.totalHits < nearest.limit - nearest.record.totalHits) nearest = { limit, record };
    }
    if (nearest)
      for (const [name, value] of Object.entries(rateLimitHeaders(nearest.limit, nearest.record)))
        this.setResponseHeader(res, name, value);
    return true;
  }

  /** One counter per route class and scope, whatever the route: the tracker hashed (it may be a card key or a username). */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return createHash('sha256').update(`${name}\n${tracker}`).digest('base64url');
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new ServiceError(ErrorCode.RATE_LIMITED, 'Too many requests; retry later', {
      headers: { ...rateLimitHeaders(detail.limit, detail), 'Retry-After': String(detail.timeToBlockExpire) },
    });
  }
}

function rateLimitHeaders(limit: number, record: ThrottlerStorageRecord): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, limit - record.totalHits)),
    'RateLimit-Reset': String(record.timeToExpire),
  };
}
