import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { arrivedOverTls, parseTrustedProxies } from './client-ip';
import { CONTRACT_EXTENSIONS } from './openapi/api-contract';

/**
 * Whether a request must be refused for having come over plain HTTP: only with
 * `NODE_ENV=production` (decisions §22), and then unless it came over TLS or from a trusted proxy
 * that says `X-Forwarded-Proto: https`. For the guard below and the portal's page.
 */
export function plainHttpRefusal(config: AppConfig): (request: unknown) => boolean {
  if (!config.requiresHttps) return () => false;
  const trustedProxies = parseTrustedProxies(config.TRUST_PROXY);
  return (request) => !arrivedOverTls(request, trustedProxies);
}

/**
 * Refuses plain HTTP with `10010 HTTPS_REQUIRED` (HTTP 403) in the route's envelope. On a controller
 * its guards run before the routes' own, so nothing is looked up, counted or logged first: a
 * request that crossed the network in clear has shown its secrets (a card key, a session token) already.
 */
@Injectable()
export class HttpsRequiredGuard implements CanActivate {
  private readonly refuses: (request: unknown) => boolean;

  constructor(config: AppConfig) {
    this.refuses = plainHttpRefusal(config);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.refuses(context.switchToHttp().getRequest())) throw new ServiceError(ErrorCode.HTTPS_REQUIRED);
    return true;
  }
}

/**
 * On each controller of a family that needs HTTPS in production: V3, the SDK (signed routes and
 * heartbeats) and the card-holder portal's API (docs/decisions.md, "Standard family").
 */
export const RequiresHttps = () =>
  applyDecorators(UseGuards(HttpsRequiredGuard), ApiExtension(CONTRACT_EXTENSIONS.httpsRequired, true));
