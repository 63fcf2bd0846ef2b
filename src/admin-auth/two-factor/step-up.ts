import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader } from '@nestjs/swagger';
import { AuditTrail } from '../../audit/audit-trail.service';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { requestContextOf } from '../../http/request-context';
import { ApiFailures } from '../../http/openapi/api-contract';
import { AdminPrincipal, PRINCIPAL_KEY } from '../admin-principal';
import { TwoFactorService } from './two-factor.service';

export const STEP_UP_HEADER = 'X-Svc-2fa-Code';
const STEP_UP_WHEN = 'cardkey:step-up-when';

/** Which requests of a route need the code, when not all do (a bulk action: only its deletes). */
export type StepUpWhen = (request: { body?: unknown }) => boolean;

/** Runs after AdminAuthGuard (a handler's guards run after its controller's): the principal is known. */
@Injectable()
export class StepUpGuard implements CanActivate {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly audit: AuditTrail,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const when = this.reflector.get<StepUpWhen | undefined>(STEP_UP_WHEN, context.getHandler());
    if (when && !when(request)) return true;
    const principal = request[PRINCIPAL_KEY] as AdminPrincipal;
    // An API key cannot type a code: its creation took one (POST /api-keys is a step-up route), and
    // the scope the admin guard already checked is the grant.
    if (principal.apiKey) return true;
    const header = request.headers?.[STEP_UP_HEADER.toLowerCase()];
    try {
      await this.twoFactor.stepUp(
        principal,
        typeof header === 'string' ? header.trim() : undefined,
        requestContextOf(request).clientIp,
      );
    } catch (error) {
      // A guard's refusal never reaches the audit interceptor: a refused step-up is recorded here.
      if (error instanceof ServiceError) await this.audit.recordRefusal(request, principal, error);
      throw error;
    }
    return true;
  }
}

/**
 * A route that mints money or keys: an account with two-factor sign-in must send a fresh code in
 * `X-Svc-2fa-Code` (a header, so a route's body keeps its own contract and DELETE works too).
 * Put it on a handler of an @AdminAuth controller.
 */
export const StepUp = (when?: StepUpWhen) =>
  applyDecorators(
    SetMetadata(STEP_UP_WHEN, when),
    UseGuards(StepUpGuard),
    ApiHeader({
      name: STEP_UP_HEADER,
      required: false,
      description: 'a fresh TOTP code; required when the account has two-factor sign-in on',
    }),
    ApiFailures(ErrorCode.TWO_FACTOR_REQUIRED, ErrorCode.TWO_FACTOR_CODE_INVALID),
  );
