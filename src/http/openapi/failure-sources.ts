import { FAMILY_GATES, ClientFamilyName } from '../../core/client-families';
import { ErrorCode } from '../../core/errors/error-code';
import { AuthScheme } from '../auth-scheme';

/**
 * Where a route's failures come from besides its own rules (`ApiFailures`): the input boundary
 * every route passes, its authentication, and its client family's program lookup and gate
 * (interface-gate.ts). The OpenAPI document lists their union on each operation.
 */

/** Every route: validation, and a fault of PostgreSQL or Redis. */
export const EVERY_ROUTE: readonly ErrorCode[] = [ErrorCode.BAD_REQUEST, ErrorCode.SYSTEM_ERROR];

/** A route that reads a body: the input boundary's media type and size. */
export const BODY_ROUTE: readonly ErrorCode[] = [ErrorCode.UNSUPPORTED_MEDIA_TYPE, ErrorCode.PAYLOAD_TOO_LARGE];

export const AUTH_FAILURES: Readonly<Record<AuthScheme, readonly ErrorCode[]>> = {
  none: [],
  'admin-bearer': [ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN],
  hmac: [
    ErrorCode.APP_REQUIRED,
    ErrorCode.CIPHERTEXT_NOT_ALLOWED,
    ErrorCode.INTERNAL_KEY_NOT_ACCEPTED,
    ErrorCode.PROGRAM_NOT_FOUND,
    ErrorCode.SIGNATURE_INVALID,
    ErrorCode.TIMESTAMP_OUT_OF_WINDOW,
    ErrorCode.NONCE_REPLAYED,
  ],
  md5: [ErrorCode.SIGNATURE_INVALID, ErrorCode.TIMESTAMP_OUT_OF_WINDOW],
  'session-bearer': [ErrorCode.SESSION_INVALID, ErrorCode.SESSION_TYPE_MISMATCH],
  'signed-url': [ErrorCode.DOWNLOAD_ADDRESS_INVALID],
};

/** How each family finds the program: the portal answers every lookup failure as CARD_INVALID. */
const PROGRAM_LOOKUP: Readonly<Record<ClientFamilyName, readonly ErrorCode[]>> = {
  connect: [ErrorCode.PROGRAM_NOT_FOUND, ErrorCode.NONCE_REPLAYED],
  v3: [],
  sdk: [],
  legacy: [ErrorCode.APP_REQUIRED, ErrorCode.INTERNAL_KEY_NOT_ACCEPTED, ErrorCode.PROGRAM_NOT_FOUND],
  portal: [ErrorCode.CARD_INVALID, ErrorCode.RATE_LIMITED],
};

/**
 * The program lookup of a family and the interface gate with that family's options. The portal
 * answers the gate's refusals CARD_INVALID too (portal-limits.ts): nothing tells a known program.
 */
export function clientFamilyFailures(family: ClientFamilyName): ErrorCode[] {
  if (family === 'portal') return [...PROGRAM_LOOKUP.portal];
  const gate = FAMILY_GATES[family];
  return [
    ...PROGRAM_LOOKUP[family],
    ErrorCode.PROGRAM_DISABLED,
    ErrorCode.AUTHOR_DISABLED,
    ...(gate.requireBasicPackage ? [ErrorCode.PACKAGE_NOT_ENABLED] : []),
    ...(gate.requireConnect ? [ErrorCode.CONNECT_NOT_ENABLED] : []),
    ErrorCode.VERIFICATION_SWITCH_OFF,
    ErrorCode.INTERFACE_DISABLED,
    ErrorCode.INTERFACE_NOT_AUTHORIZED,
    ErrorCode.QUOTA_EXCEEDED,
  ];
}
