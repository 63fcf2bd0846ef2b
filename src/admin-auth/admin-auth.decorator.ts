import { applyDecorators, SetMetadata, UseGuards, UseInterceptors } from '@nestjs/common';
import { AuditInterceptor } from '../audit/audit.interceptor';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { AdminAuthGuard } from './admin-auth.guard';
import { AdminRole } from './admin-user.entity';
import { RateLimit } from '../http/throttling/route-rate.guard';
import { byPrincipal } from './rate-keys';

export const ADMIN_ROLES = 'cardkey:admin-roles';
export const BEFORE_ENROLMENT = 'cardkey:admin-before-enrolment';
export const AGENT_SCOPE = 'cardkey:admin-agent-scope';

/**
 * Bearer admin token required on every route of the controller or handler. Every write it lets
 * through is rate limited (`admin-write`) and recorded in the audit trail (AuditInterceptor: who,
 * where, what, before and after).
 */
export const AdminAuth = () =>
  applyDecorators(
    DeclareAuthScheme('admin-bearer'),
    UseGuards(AdminAuthGuard),
    // After AdminAuthGuard: only signed-in writes count, per account and per address (rate-limits.ts).
    RateLimit('admin-write', byPrincipal, { writesOnly: true }),
    UseInterceptors(AuditInterceptor),
  );

/** Narrows an @AdminAuth route to these roles; any other role gets 403. */
export const AdminRoles = (...roles: AdminRole[]) => SetMetadata(ADMIN_ROLES, roles);

/** A route an account may use while the platform requires two-factor sign-in it has not set up yet. */
export const BeforeEnrolment = () => SetMetadata(BEFORE_ENROLMENT, true);

/**
 * A route an agent's token may reach (decisions §19). Every other admin route answers an agent 403
 * before its handler runs; a route marked here still decides what of its data the agent sees.
 */
export const AgentScope = () => SetMetadata(AGENT_SCOPE, true);
