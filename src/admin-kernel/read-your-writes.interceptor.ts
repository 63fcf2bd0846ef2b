import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, mergeMap, Observable } from 'rxjs';
import { ReplicaReads } from '../database/replica-reads';
import { AdminPrincipal, PRINCIPAL_KEY } from './admin-principal';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Marks every admin write that succeeded, before its answer leaves, so that the author's next
 * reads go to the primary and show the change (ReplicaReads). A refused write changed nothing.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly replicaReads: ReplicaReads) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest();
    if (READS.has(request.method) || !this.replicaReads.enabled) return next.handle();
    return next.handle().pipe(
      mergeMap((answer) => {
        const principal = request[PRINCIPAL_KEY] as AdminPrincipal | undefined;
        if (!principal) return [answer];
        return from(this.replicaReads.wrote(principal.id).then(() => answer));
      }),
    );
  }
}
