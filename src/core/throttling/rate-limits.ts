import type { ThrottlerOptions } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config';

/**
 * The route classes whose plain request rate is limited: where each request costs the
 * service (a row, a password hash, a session, an unbind) or lets someone probe. Card login and the
 * heartbeats are not among them: they carry no rate guard at all.
 */
export const ROUTE_CLASSES = [
  'register',
  'sign-in',
  'portal',
  'unbind',
  'orders',
  'shop-checkout',
  'shop-status',
  'shop-notify',
  'admin-write',
] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

/** Each route class is counted per client address and, where the route names one, per key (account, program or card). */
export type RateScope = 'address' | 'key';

/** The throttler (ThrottlerModule's named limit) of a route class's scope, e.g. `sign-in` and `sign-in:key`. */
export function throttlerName(routeClass: RouteClass, scope: RateScope): string {
  return scope === 'address' ? routeClass : `${routeClass}:key`;
}

/** Requests a window per scope, from the config (0 = off); the portal's per-card count stays with PortalLimits. */
function limitsOf(config: AppConfig): Record<RouteClass, Record<RateScope, number>> {
  return {
    register: { address: config.RATE_LIMIT_REGISTER_PER_ADDRESS, key: config.RATE_LIMIT_REGISTER_PER_PROGRAM },
    'sign-in': { address: config.RATE_LIMIT_SIGN_IN_PER_ADDRESS, key: config.RATE_LIMIT_SIGN_IN_PER_ACCOUNT },
    portal: { address: config.RATE_LIMIT_PORTAL_PER_ADDRESS, key: 0 },
    unbind: { address: config.RATE_LIMIT_UNBIND_PER_ADDRESS, key: config.RATE_LIMIT_UNBIND_PER_CARD },
    orders: { address: config.RATE_LIMIT_ORDERS_PER_ADDRESS, key: config.RATE_LIMIT_ORDERS_PER_ACCOUNT },
    // The storefront's public routes (decisions §26) are counted per address only: a key per program
    // would let anyone stop a program's sales by spending its count.
    'shop-checkout': { address: config.RATE_LIMIT_SHOP_CHECKOUTS_PER_ADDRESS, key: 0 },
    'shop-status': { address: config.RATE_LIMIT_SHOP_STATUS_PER_ADDRESS, key: 0 },
    'shop-notify': { address: config.RATE_LIMIT_SHOP_NOTIFY_PER_ADDRESS, key: 0 },
    'admin-write': { address: config.RATE_LIMIT_ADMIN_WRITE_PER_ADDRESS, key: config.RATE_LIMIT_ADMIN_WRITE_PER_ACCOUNT },
  };
}

/** ThrottlerModule's named limits: one per route class and scope that is on (ttl in milliseconds). */
export function rateLimitThrottlers(config: AppConfig): ThrottlerOptions[] {
  const ttl = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const limits = limitsOf(config);
  return ROUTE_CLASSES.flatMap((routeClass) =>
    (['address', 'key'] as const)
      .filter((scope) => limits[routeClass][scope] > 0)
      .map((scope) => ({ name: throttlerName(routeClass, scope), limit: limits[routeClass][scope], ttl })),
  );
}
