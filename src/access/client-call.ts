import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { CONTRACT_EXTENSIONS } from '../http/openapi/api-contract';
import { Reflector } from '@nestjs/core';
import { RequestContext, requestContextOf } from '../http/request-context';
import { ClientProgram } from './client-program';
import { ClientFamilyName } from '../core/client-families';

/**
 * A client request as its family's guard established it: the program, the family (hence the gate
 * it passes and the name on its log rows), and the caller's address and request id.
 */
export interface ClientCall {
  program: ClientProgram;
  family: ClientFamilyName;
  ip: string;
  requestId: string;
  /**
   * The HTTP request's context (what it undoes on a fault, its cache generations, what it was
   * answered); absent when a service is called outside a request (tests), where there is none.
   */
  context?: RequestContext;
}

/**
 * A client request whose program the service learns itself (a session heartbeat finds it by the
 * session's token): the caller's address and the HTTP request's context, which a domain service
 * only passes on to the access layer: the domain stays free of HTTP.
 */
export type ClientRequest = Pick<ClientCall, 'ip' | 'context'>;

/** The caller of a route that no program guard established, as a handler parameter. */
export const Requester = createParamDecorator((_: unknown, ctx: ExecutionContext): ClientRequest => {
  const context = requestContextOf(ctx.switchToHttp().getRequest());
  return { ip: context.clientIp, context };
});

const CLIENT_CALL = Symbol.for('cardkey.clientCall');
const CLIENT_FAMILY = 'cardkey:client-family';

/** Part of a family's auth decorator: which family a route belongs to (and so which gate it passes). */
export const ClientFamily = (family: ClientFamilyName) =>
  applyDecorators(SetMetadata(CLIENT_FAMILY, family), ApiExtension(CONTRACT_EXTENSIONS.clientFamily, family));

/** The family a route declared with `ClientFamily` (for a guard that serves several families). */
export function declaredFamily(reflector: Reflector, context: ExecutionContext): ClientFamilyName {
  const family = reflector.getAllAndOverride<ClientFamilyName | undefined>(CLIENT_FAMILY, [
    context.getHandler(),
    context.getClass(),
  ]);
  if (!family) throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no client family`);
  return family;
}

/** Called by a family's guard once the program is known and the caller authenticated. */
export function establishCall(request: Record<symbol, unknown>, program: ClientProgram, family: ClientFamilyName): ClientCall {
  const context = requestContextOf(request);
  const call: ClientCall = { program, family, ip: context.clientIp, requestId: context.requestId, context };
  request[CLIENT_CALL] = call;
  return call;
}

/** The call the route's family guard established, if it ran (rate-keys.ts). */
export function establishedCall(request: Record<PropertyKey, unknown>): ClientCall | undefined {
  return request[CLIENT_CALL] as ClientCall | undefined;
}

/** The call the route's family guard established, as a handler parameter. */
export const Caller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ClientCall => ctx.switchToHttp().getRequest()[CLIENT_CALL],
);
