import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile, Type } from '@nestjs/common';
import { Observable } from 'rxjs';
import { classifyError } from '../../core/errors/to-service-error';
import { recordAnswer, requestContextOf, undoAfterFault } from '../request-context';
import { Family } from './family';
import { ClientReply, renderSuccess, successCodeOf } from './render';
import { applyRenames, responseRenamesOf } from './response-renames';

/** The families whose successes are rendered in an envelope (the admin API answers its data as it is). */
export type ClientFamily = Exclude<Family, 'admin'>;

/** What Express's response and Fastify's reply both offer. */
interface StatusSettable {
  status(code: number): unknown;
}

/**
 * Answers what a client-family handler returns in the family's success envelope: the family's
 * success code (kept for the access log and metrics), the request id, the program's Connect
 * renames, and HTTP 200 whatever the method (Nest would answer 201 to a POST). A platform fault
 * first gives back what the request consumed (quota units, `onFault`), then goes on to the global
 * EnvelopeExceptionFilter, which renders every failure, guards' included. A file download answers
 * its bytes.
 *
 * One Observable of its own instead of `pipe(map, catchError)`: Nest's runner already costs each
 * request an rxjs pipeline, and the fault path has to wait for the give-back before it rethrows.
 */
abstract class FamilyEnvelopeInterceptor implements NestInterceptor {
  protected abstract readonly family: ClientFamily;

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request: unknown = http.getRequest();
    const response = http.getResponse<StatusSettable>();
    return new Observable((subscriber) =>
      next.handle().subscribe({
        next: (reply: unknown) => {
          let answer: unknown;
          try {
            answer = this.answer(request, response, reply);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.next(answer);
        },
        error: (error: unknown) => {
          if (!classifyError(error).fault) return subscriber.error(error);
          void undoAfterFault(request).then(() => subscriber.error(error));
        },
        complete: () => subscriber.complete(),
      }),
    );
  }

  private answer(request: unknown, response: StatusSettable, reply: unknown): unknown {
    if (reply instanceof StreamableFile) return reply;
    response.status(200);
    recordAnswer(request, successCodeOf(this.family, reply), false, reply as ClientReply | null | undefined);
    return applyRenames(renderSuccess(this.family, reply, requestContextOf(request).requestId), responseRenamesOf(request));
  }
}

/** Connect (`/connect`, `/conncet`): `{ status, code, reason, data, request_id }`, with the program's renames. */
@Injectable()
export class ConnectEnvelopeInterceptor extends FamilyEnvelopeInterceptor {
  protected readonly family = 'connect';
}

/** HTTP V3 and SDK v1: `{ code, success, msg, data, request_id }` plus the handler's extras (token, statecode). */
@Injectable()
export class StandardEnvelopeInterceptor extends FamilyEnvelopeInterceptor {
  protected readonly family = 'standard';
}

/** The legacy routes (`/api/...`): `{ code, msg, data, request_id }`. */
@Injectable()
export class LegacyEnvelopeInterceptor extends FamilyEnvelopeInterceptor {
  protected readonly family = 'legacy';
}

/** The interceptor `@Envelope(family)` gives each client family's controllers. */
export const ENVELOPE_INTERCEPTORS: Readonly<Record<ClientFamily, Type<NestInterceptor>>> = {
  connect: ConnectEnvelopeInterceptor,
  standard: StandardEnvelopeInterceptor,
  legacy: LegacyEnvelopeInterceptor,
};
