import { SetMetadata } from '@nestjs/common';

/** How a route authenticates; read by guards' decorators and listed by the route snapshot test. */
export type AuthScheme = 'none' | 'admin-bearer' | 'hmac' | 'md5' | 'session-bearer' | 'signed-url';
export const AUTH_SCHEME = 'cardkey:auth-scheme';
export const DeclareAuthScheme = (scheme: AuthScheme) => SetMetadata(AUTH_SCHEME, scheme);
