import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { CONTRACT_EXTENSIONS } from '../http/openapi/api-contract';

/**
 * Every scope an API key may carry (decisions §19), the one list: the create route validates against
 * it, the console offers it, docs/api-keys.md describes it. A route opens itself to keys by declaring
 * the one scope it needs with @KeyScope; a route without a declaration (account, password, two-factor,
 * API keys themselves, platform administration) refuses every key.
 */
export const API_KEY_SCOPES = {
  /** `POST /admin/v1/projects/:id/orders`: mint cards against the owner's balance. */
  ORDERS_CREATE: 'orders:create',
  /** Read orders of the key's projects. */
  ORDERS_READ: 'orders:read',
  /** List, search, export and read cards. */
  CARDS_READ: 'cards:read',
  /** Create, import, change, ban, unbind and delete cards. */
  CARDS_WRITE: 'cards:write',
  /** List and read card types. */
  CARD_TYPES_READ: 'card-types:read',
  /** List webhook endpoints and their deliveries. */
  WEBHOOKS_READ: 'webhooks:read',
  /** Add, change, delete, test and redeliver webhook endpoints. */
  WEBHOOKS_WRITE: 'webhooks:write',
} as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[keyof typeof API_KEY_SCOPES];
export const ALL_API_KEY_SCOPES: readonly ApiKeyScope[] = Object.values(API_KEY_SCOPES);

export const KEY_SCOPE = 'cardkey:api-key-scope';

/** An @AdminAuth route an API key with this scope may call (the owner's role rules still apply). */
export const KeyScope = (scope: ApiKeyScope) =>
  applyDecorators(SetMetadata(KEY_SCOPE, scope), ApiExtension(CONTRACT_EXTENSIONS.apiKeyScope, scope));
