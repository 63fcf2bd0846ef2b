import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ADMIN_ROLES } from './admin-auth.decorator';
import { AdminAuthService } from './admin-auth.service';
import { AdminRole } from './admin-user.entity';
import { PRINCIPAL_KEY } from './admin-principal';

/** Resolves the Bearer admin token; 401 when missing, unknown or expired, 403 for a role without the right. */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly auth: AdminAuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const header = request.headers?.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) throw new ServiceError(ErrorCode.UNAUTHENTICATED, 'A Bearer admin token is required');
    const principal = await this.auth.authenticate(match[1]);
    const roles = this.reflector.getAllAndOverride<AdminRole[]>(ADMIN_ROLES, [context.getHandler(), context.getClass()]) ?? [];
    if (roles.length > 0 && !roles.includes(principal.role)) throw new ServiceError(ErrorCode.FORBIDDEN);
    request[PRINCIPAL_KEY] = principal;
    return true;
  }
}
