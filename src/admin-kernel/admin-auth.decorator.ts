import { applyDecorators, UseGuards, UseInterceptors } from '@nestjs/common';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { AdminAuthGuard, AuditInterceptor } from './admin-checks';
import { RateLimit } from '../http/throttling/route-rate.guard';
import { byPrincipal } from './rate-keys';
import { ReadYourWritesInterceptor } from './read-your-writes.interceptor';

export { AdminRoles, AgentScope, BeforeEnrolment } from './admin-route-metadata';

/**
 * Bearer admin token required on every route of the controller or handler. Every write it lets
 * through is rate limited (`admin-write`) and recorded in the audit trail (AuditInterceptor: who,
 * where, what, before and after) and marks its author for read-your-writes (ReplicaReads).
 */
export const AdminAuth = () =>
  applyDecorators(
    DeclareAuthScheme('admin-bearer'),
    UseGuards(AdminAuthGuard),
    // After AdminAuthGuard: only signed-in writes count, per account and per address (rate-limits.ts).
    RateLimit('admin-write', byPrincipal, { writesOnly: true }),
    UseInterceptors(AuditInterceptor, ReadYourWritesInterceptor),
  );
