import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AdminRole } from './admin-user.entity';
import type { ApiKeyScope } from './api-key-scopes';

/** Who is calling the admin API, as established by AdminAuthGuard. */
export interface AdminPrincipal {
  id: string;
  username: string;
  role: AdminRole;
  tokenHash: string;
  /** Whether the account signs in with a TOTP code (step-up routes then ask for a fresh one). */
  twoFactorEnabled: boolean;
  /** Set when the request came with an API key: the owner, narrowed to the key's limits. */
  apiKey?: ApiKeyLimits;
}

/** What an API key narrows its owner's rights to (decisions §19). */
export interface ApiKeyLimits {
  id: string;
  name: string;
  scopes: readonly ApiKeyScope[];
  /** null = every project the owner reaches. */
  projectIds: readonly string[] | null;
}

export const PRINCIPAL_KEY = 'adminPrincipal';

export const CurrentAdmin = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AdminPrincipal => ctx.switchToHttp().getRequest()[PRINCIPAL_KEY],
);

export function isPlatformAdmin(principal: AdminPrincipal): boolean {
  return principal.role === 'platform_admin';
}
