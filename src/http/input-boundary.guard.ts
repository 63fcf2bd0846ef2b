import { isUtf8 } from 'node:buffer';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { familyOfPath, pathOf } from './envelope/family';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { BODY_TYPE, BodyType, CONTENT_TYPES, mediaTypeOf } from './content-type';
import { findInputProblem, hasBrokenPercentEncoding } from './input-rules';
import { requestContextOf } from './request-context';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The one input boundary every route passes before its own guards (a global guard runs first, and
 * before any pipe transforms the body): a client address that a trusted proxy's X-Forwarded-For
 * names readably (client-ip.ts), the declared body type (415 otherwise), valid UTF-8 and
 * percent escapes, no control characters or unpaired surrogates in any text, no field names that
 * reach object internals, and a bounded depth. A refusal is the family's BAD_REQUEST, and nothing
 * has been looked up, counted or written yet.
 */
@Injectable()
export class InputBoundaryGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    const unreadable = requestContextOf(request).unreadableClientAddress;
    if (unreadable) throw new ServiceError(ErrorCode.BAD_REQUEST, unreadable, { details: ['X-Forwarded-For'] });
    const method = String(request.method).toUpperCase();
    const url: string = request.originalUrl ?? request.url ?? '';
    const path = pathOf(url);
    if (BODY_METHODS.has(method)) {
      const declared = this.reflector.getAllAndOverride<BodyType | undefined>(BODY_TYPE, [
        context.getHandler(),
        context.getClass(),
      ]);
      checkBodyType(request, declared ?? defaultBodyType(path), familyOfPath(path) === 'admin');
    }
    const query = url.slice(path.length + 1);
    if (hasBrokenPercentEncoding(query)) throw refuse('query', 'has a percent escape that is not UTF-8');
    const rawBody: Buffer | undefined = request.rawBody ?? request.raw?.rawBody;
    if (rawBody && !isUtf8(rawBody)) throw refuse('body', 'is not valid UTF-8');
    if (rawBody && mediaTypeOf(request) === CONTENT_TYPES.form && hasBrokenPercentEncoding(rawBody.toString('latin1'))) {
      throw refuse('body', 'has a percent escape that is not UTF-8');
    }
    const problem =
      findInputProblem(request.params, 'path') ??
      findInputProblem(request.query, 'query') ??
      findInputProblem(request.body, 'body');
    if (problem) throw refuse(problem.field, problem.reason);
    return true;
  }
}

function defaultBodyType(path: string): BodyType {
  const family = familyOfPath(path);
  return family === 'connect' || family === 'legacy' ? 'form' : 'json';
}

/** A client route always needs its body type; an admin route only when it sends a body. */
function checkBodyType(request: { headers?: Record<string, unknown> }, expected: BodyType, bodyOptional: boolean): void {
  const actual = mediaTypeOf(request);
  if (actual === CONTENT_TYPES[expected]) return;
  if (bodyOptional && !actual && !hasBody(request)) return;
  throw new ServiceError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Send the body as ${CONTENT_TYPES[expected]}`);
}

function hasBody(request: { headers?: Record<string, unknown> }): boolean {
  const length = Number(request.headers?.['content-length'] ?? 0);
  return length > 0 || request.headers?.['transfer-encoding'] !== undefined;
}

function refuse(field: string, reason: string): ServiceError {
  return new ServiceError(ErrorCode.BAD_REQUEST, `${field} ${reason}`, { details: [field] });
}
