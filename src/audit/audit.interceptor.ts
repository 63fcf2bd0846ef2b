import { CallHandler, ExecutionContext, Injectable } from '@nestjs/common';
import { AdminWritesTrail } from '../admin-kernel/admin-checks';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { PRINCIPAL_KEY } from '../admin-kernel/admin-principal';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { requestContextOf } from '../http/request-context';
import { JsonLogger } from '../core/logging/json-logger';
import { AuditTrail } from './audit-trail.service';
import { signedInActorOf } from '../admin-kernel/sign-in-client';
import { secretFieldsOf } from './redact';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Refusals kept in the trail: someone tried what their role or their second factor does not allow. */
const RECORDED_REFUSALS = new Set<number>([
  ErrorCode.FORBIDDEN,
  ErrorCode.TWO_FACTOR_REQUIRED,
  ErrorCode.TWO_FACTOR_CODE_INVALID,
]);
const AUDITED = Symbol('cardkey.audited');

/**
 * Records every admin write that succeeded, after the handler and before the answer leaves (so a
 * client that reads the trail next sees it). Only admin routes carry it (@AdminAuth puts the kernel's
 * AuditInterceptor on them, which hands each request here), so client routes pay nothing. A row that cannot be written is logged, not answered as a failure: the change
 * itself is already committed.
 */
@Injectable()
export class AuditTrailInterceptor implements AdminWritesTrail {
  constructor(
    private readonly trail: AuditTrail,
    private readonly logger: JsonLogger,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest();
    if (!WRITES.has(request.method) || request[AUDITED]) return next.handle();
    request[AUDITED] = true;
    const types = (Reflect.getMetadata('design:paramtypes', context.getClass().prototype, context.getHandler().name) ??
      []) as unknown[];
    const secretFields = new Set(types.flatMap((t) => [...secretFieldsOf(t)]));
    return next.handle().pipe(
      mergeMap((answer) =>
        from(
          this.safely(request, () => this.trail.recordSuccess(request, request[PRINCIPAL_KEY], answer, secretFields)).then(
            () => answer,
          ),
        ),
      ),
      catchError((error) => {
        if (!(error instanceof ServiceError) || !RECORDED_REFUSALS.has(error.code)) return throwError(() => error);
        const actor = request[PRINCIPAL_KEY] ?? signedInActorOf(request);
        return from(this.safely(request, () => this.trail.recordRefusal(request, actor, error))).pipe(
          mergeMap(() => throwError(() => error)),
        );
      }),
    );
  }

  private async safely(request: unknown, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.logger.entry('error', 'audit trail row not written', {
        request_id: requestContextOf(request).requestId,
        error: String(error),
      });
    }
  }
}
