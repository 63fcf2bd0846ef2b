import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuditTrail } from '../../audit/audit-trail.service';
import { ServiceError } from '../../core/errors/service-error';
import { requestContextOf } from '../../http/request-context';
import { StepUpCheck } from '../../admin-kernel/admin-checks';
import { AdminPrincipal, PRINCIPAL_KEY } from '../../admin-kernel/admin-principal';
import { STEP_UP_HEADER, STEP_UP_WHEN, StepUpWhen } from '../../admin-kernel/step-up';
import { TwoFactorService } from './two-factor.service';

/** The code of a @StepUp route (admin-kernel/step-up.ts), checked for the kernel's StepUpGuard. */
@Injectable()
export class StepUpCodeCheck implements StepUpCheck {
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
