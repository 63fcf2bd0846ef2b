import { CallHandler, CanActivate, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';

/*
 * What an admin route needs from the modules above every resource, named here so that a resource
 * imports the kernel only. Nest builds a route's guards and interceptors in the controller's own
 * module, where a class of the kernel can only reach what is provided globally: so @AdminAuth and
 * @StepUp put the small classes below on a route, and each hands the request to the check that the
 * global AdminAuthModule (sign-in, step-up) or AuditModule (the trail) provides under its token.
 */

/** The Bearer token or API key, the route's roles and scope, the two-factor enrolment (AdminAuthModule). */
export abstract class AdminSignInCheck {
  abstract canActivate(context: ExecutionContext): Promise<boolean>;
}

/** A fresh two-factor code on a step-up route (AdminAuthModule). */
export abstract class StepUpCheck {
  abstract canActivate(context: ExecutionContext): Promise<boolean>;
}

/** Every admin write in the audit trail, with the refusals worth keeping (AuditModule). */
export abstract class AdminWritesTrail {
  abstract intercept(context: ExecutionContext, next: CallHandler): Observable<unknown>;
}

/** An account's sessions and API keys, ended when its password is reset or it is disabled (AdminAuthModule). */
export abstract class AccountSessions {
  abstract revokeAll(accountId: string): Promise<unknown>;
  abstract revokeAfterPasswordReset(accountId: string): Promise<void>;
}

@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(private readonly check: AdminSignInCheck) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return this.check.canActivate(context);
  }
}

/** Runs after AdminAuthGuard (a handler's guards run after its controller's): the principal is known. */
@Injectable()
export class StepUpGuard implements CanActivate {
  constructor(private readonly check: StepUpCheck) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return this.check.canActivate(context);
  }
}

@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(private readonly trail: AdminWritesTrail) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return this.trail.intercept(context, next);
  }
}
