import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { DeclareAuthScheme } from '../core/http/auth-scheme';
import { AdminAuthGuard } from './admin-auth.guard';
import { AdminRole } from './admin-user.entity';

export const ADMIN_ROLES = 'cardkey:admin-roles';

/** Bearer admin token required on every route of the controller or handler. */
export const AdminAuth = () => applyDecorators(DeclareAuthScheme('admin-bearer'), UseGuards(AdminAuthGuard));

/** Narrows an @AdminAuth route to these roles; any other role gets 403. */
export const AdminRoles = (...roles: AdminRole[]) => SetMetadata(ADMIN_ROLES, roles);
