import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuditTrail } from '../audit/audit-trail.service';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ADMIN_ROLES, AGENT_SCOPE, BEFORE_ENROLMENT } from './admin-auth.decorator';
import { AdminAuthService } from './admin-auth.service';
import { AdminRole } from './admin-user.entity';
import { PRINCIPAL_KEY } from './admin-principal';
import { TwoFactorPolicy } from './two-factor/two-factor-policy';

/**
 * Resolves the Bearer admin token; 401 when missing, unknown or expired, 403 for a role without the
 * right or an agent on a route without @AgentScope (recorded in the audit trail: guards' refusals
 * never reach its interceptor), and 403
 * TWO_FACTOR_ENROLMENT_REQUIRED while the platform requires two-factor sign-in and the account has
 * none, except on the routes that let it enrol.
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly auth: AdminAuthService,
    private readonly reflector: Reflector,
    private readonly twoFactor: TwoFactorPolicy,
    private readonly audit: AuditTrail,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const header = request.headers?.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) throw new ServiceError(ErrorCode.UNAUTHENTICATED, 'A Bearer admin token is required');
    const principal = await this.auth.authenticate(match[1]);
    const targets = [context.getHandler(), context.getClass()];
    const roles = this.reflector.getAllAndOverride<AdminRole[]>(ADMIN_ROLES, targets) ?? [];
    const outOfScope = principal.role === 'agent' && !this.reflector.getAllAndOverride<boolean>(AGENT_SCOPE, targets);
    if (outOfScope || (roles.length > 0 && !roles.includes(principal.role))) {
      const refusal = new ServiceError(ErrorCode.FORBIDDEN);
      await this.audit.recordRefusal(request, principal, refusal);
      throw refusal;
    }
    if (!principal.twoFactorEnabled && !this.reflector.getAllAndOverride<boolean>(BEFORE_ENROLMENT, targets) && (await this.twoFactor.required())) {
      throw new ServiceError(ErrorCode.TWO_FACTOR_ENROLMENT_REQUIRED);
    }
    request[PRINCIPAL_KEY] = principal;
    return true;
  }
}
