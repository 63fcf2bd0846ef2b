import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { catchError, from, map, Observable, switchMap, throwError } from 'rxjs';
import { classifyError } from '../errors/to-service-error';
import { recordAnswer, requestIdOf, undoAfterFault } from '../http/request-context';
import { ENVELOPE_FAMILY } from './envelope.decorator';
import { Family } from './family';
import { renderSuccess, successCodeOf } from './render';
import { applyRenames, responseRenamesOf } from './response-renames';

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const family = this.reflector.getAllAndOverride<Family>(ENVELOPE_FAMILY, [context.getHandler(), context.getClass()]);
    const http = context.switchToHttp();
    const request = http.getRequest();
    const requestId = requestIdOf(request);
    if (family !== 'admin') {
      // Client families answer 200 on success whatever the method (Nest would pick 201 for POST).
      this.adapterHost.httpAdapter.status(http.getResponse(), 200);
    }
    return next
      .handle()
      // A file download answers its bytes, not an envelope.
      .pipe(
        map((reply) => {
          if (reply instanceof StreamableFile) return reply;
          recordAnswer(request, successCodeOf(family, reply), false);
          return applyRenames(renderSuccess(family, reply, requestId), responseRenamesOf(request));
        }),
        // A platform fault gives back what the request consumed (quota units) before it is answered.
        catchError((error: unknown) => (classifyError(error).fault ? from(undoAfterFault(request)).pipe(switchMap(() => throwError(() => error))) : throwError(() => error))),
      );
  }
}
