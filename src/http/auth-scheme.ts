import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { CONTRACT_EXTENSIONS } from './openapi/api-contract';

/** How a route authenticates; read by guards' decorators and listed by the route snapshot test. */
export type AuthScheme = 'none' | 'admin-bearer' | 'hmac' | 'md5' | 'session-bearer' | 'signed-url';
export const AUTH_SCHEME = 'cardkey:auth-scheme';

/** Also what the OpenAPI document declares as the route's security (complete-document.ts). */
export const DeclareAuthScheme = (scheme: AuthScheme) =>
  applyDecorators(SetMetadata(AUTH_SCHEME, scheme), ApiExtension(CONTRACT_EXTENSIONS.auth, scheme));
