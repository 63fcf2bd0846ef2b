import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AdminRole } from './admin-user.entity';

/** Who is calling the admin API, as established by AdminAuthGuard. */
export interface AdminPrincipal {
  id: string;
  username: string;
  role: AdminRole;
  tokenHash: string;
  /** Whether the account signs in with a TOTP code (step-up routes then ask for a fresh one). */
  twoFactorEnabled: boolean;
}

export const PRINCIPAL_KEY = 'adminPrincipal';

export const CurrentAdmin = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AdminPrincipal => ctx.switchToHttp().getRequest()[PRINCIPAL_KEY],
);

export function isPlatformAdmin(principal: AdminPrincipal): boolean {
  return principal.role === 'platform_admin';
}
