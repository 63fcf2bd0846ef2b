import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DeclareAuthScheme } from '../http/auth-scheme';

const BEARER = Symbol.for('cardkey.sessionBearer');

/** Takes the session token from `Authorization: Bearer`; a missing one is SESSION_INVALID. */
@Injectable()
export class SessionBearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    const match = /^Bearer\s+(\S{16,256})$/i.exec(String(request.headers?.authorization ?? ''));
    if (!match) throw new ServiceError(ErrorCode.SESSION_INVALID, 'An Authorization: Bearer session token is required');
    request[BEARER] = match[1];
    return true;
  }
}

/** Heartbeat routes: authenticated by the session token alone (decisions §3). */
export const SessionBearer = () => applyDecorators(DeclareAuthScheme('session-bearer'), UseGuards(SessionBearerGuard));

export const BearerToken = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string => ctx.switchToHttp().getRequest()[BEARER],
);
