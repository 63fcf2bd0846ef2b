import { SetMetadata } from '@nestjs/common';
import { AdminRole } from './admin-user.entity';

/**
 * What an admin route declares beside @AdminAuth, read by AdminAuthGuard. Apart from the decorator
 * that applies the guard, so that the guard and the decorator never import each other.
 */
export const ADMIN_ROLES = 'cardkey:admin-roles';
export const BEFORE_ENROLMENT = 'cardkey:admin-before-enrolment';
export const AGENT_SCOPE = 'cardkey:admin-agent-scope';

/** Narrows an @AdminAuth route to these roles; any other role gets 403. */
export const AdminRoles = (...roles: AdminRole[]) => SetMetadata(ADMIN_ROLES, roles);

/** A route an account may use while the platform requires two-factor sign-in it has not set up yet. */
export const BeforeEnrolment = () => SetMetadata(BEFORE_ENROLMENT, true);

/**
 * A route an agent's token may reach (decisions §19). Every other admin route answers an agent 403
 * before its handler runs; a route marked here still decides what of its data the agent sees.
 */
export const AgentScope = () => SetMetadata(AGENT_SCOPE, true);
