import { ExecutionContext, Injectable } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { AuditTrail } from '../audit/audit-trail.service';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { requestContextOf } from '../http/request-context';
import { AdminSignInCheck } from '../admin-kernel/admin-checks';
import { ADMIN_ROLES, AGENT_SCOPE, BEFORE_ENROLMENT } from '../admin-kernel/admin-route-metadata';
import { AdminAuthService } from './admin-auth.service';
import { AdminRole } from '../admin-kernel/admin-user.entity';
import { AdminPrincipal, PRINCIPAL_KEY } from '../admin-kernel/admin-principal';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { ApiKeyScope, KEY_SCOPE } from '../admin-kernel/api-key-scopes';
import { TwoFactorPolicy } from './two-factor/two-factor-policy';

type Targets = Parameters<Reflector['getAllAndOverride']>[1];
/** A controller whose routes act on one project, named by `:id`. */
const PROJECT_ROUTE = /^\/?admin\/v1\/projects\/:id(\/|$)/;

/**
 * Resolves the Bearer admin token or API key; 401 when missing, unknown or expired, 403 for a role
 * without the right or an agent on a route without @AgentScope (recorded in the audit trail: guards'
 * refusals never reach its interceptor), and 403 TWO_FACTOR_ENROLMENT_REQUIRED while the platform
 * requires two-factor sign-in and the account has none, except on the routes that let it enrol. An
 * API key (`ck_…`) acts as its owner narrowed to the key: only from its CIDRs, only on routes that
 * declare a scope it has (@KeyScope); its project limit is ProjectAccess's.
 */
@Injectable()
export class AdminTokenCheck implements AdminSignInCheck {
  constructor(
    private readonly auth: AdminAuthService,
    private readonly keys: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
    private readonly twoFactor: TwoFactorPolicy,
    private readonly audit: AuditTrail,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const header = request.headers?.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) throw new ServiceError(ErrorCode.UNAUTHENTICATED, 'A Bearer admin token is required');
    const targets = [context.getHandler(), context.getClass()];
    const principal = ApiKeyAuthenticator.looksLikeKey(match[1])
      ? await this.keyPrincipal(context, match[1], targets)
      : await this.auth.authenticate(match[1]);
    const roles = this.reflector.getAllAndOverride<AdminRole[]>(ADMIN_ROLES, targets) ?? [];
    const outOfScope = principal.role === 'agent' && !this.reflector.getAllAndOverride<boolean>(AGENT_SCOPE, targets);
    if (outOfScope || (roles.length > 0 && !roles.includes(principal.role)))
      await this.refuse(request, principal, new ServiceError(ErrorCode.FORBIDDEN));
    if (
      !principal.twoFactorEnabled &&
      !this.reflector.getAllAndOverride<boolean>(BEFORE_ENROLMENT, targets) &&
      (await this.twoFactor.required())
    ) {
      throw new ServiceError(ErrorCode.TWO_FACTOR_ENROLMENT_REQUIRED);
    }
    request[PRINCIPAL_KEY] = principal;
    return true;
  }

  /**
   * The key's owner, once the caller's address, the route's scope and the key's projects pass;
   * the first two refusals are audited. The project limit is checked here on every
   * `/projects/:id/…` route (and again by ProjectAccess), so no service can miss it.
   */
  private async keyPrincipal(context: ExecutionContext, key: string, targets: Targets): Promise<AdminPrincipal> {
    const request = context.switchToHttp().getRequest();
    const { principal, allowedCidrs } = await this.keys.authenticate(key);
    if (!ApiKeyAuthenticator.allows(allowedCidrs, requestContextOf(request).clientIp)) {
      await this.refuse(request, principal, new ServiceError(ErrorCode.API_KEY_ADDRESS_REFUSED));
    }
    const scope = this.reflector.getAllAndOverride<ApiKeyScope | undefined>(KEY_SCOPE, targets);
    if (!scope) await this.refuse(request, principal, new ServiceError(ErrorCode.API_KEY_NOT_ACCEPTED));
    else if (!principal.apiKey?.scopes.includes(scope)) {
      await this.refuse(request, principal, new ServiceError(ErrorCode.API_KEY_SCOPE_MISSING, undefined, { details: { scope } }));
    }
    const limited = principal.apiKey?.projectIds;
    const inProject = PROJECT_ROUTE.test(String(Reflect.getMetadata(PATH_METADATA, context.getClass()) ?? ''));
    if (limited && inProject && !limited.includes(request.params?.id)) throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND);
    return principal;
  }

  private async refuse(request: unknown, principal: AdminPrincipal, refusal: ServiceError): Promise<never> {
    await this.audit.recordRefusal(request as never, principal, refusal);
    throw refusal;
  }
}
