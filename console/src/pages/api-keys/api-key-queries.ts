import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type ApiKey = Schemas['ApiKeyView'];
export type ApiKeyScope = ApiKey['scopes'][number];
export type NewApiKey = Schemas['CreateApiKeyDto'];

export const apiKeyKeys = { all: ['api-keys'] };

/** The signed-in account's own keys. */
export function apiKeyListQuery() {
  return queryOptions({ queryKey: apiKeyKeys.all, queryFn: () => unwrap(api.GET('/admin/v1/api-keys')) });
}

/** Answers the key itself, the one time it is shown. */
export function createApiKey(key: NewApiKey) {
  return unwrap(api.POST('/admin/v1/api-keys', { body: key }));
}

export function revokeApiKey(keyId: string) {
  return unwrap(api.DELETE('/admin/v1/api-keys/{keyId}', { params: { path: { keyId } } }));
}
