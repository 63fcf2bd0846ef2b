import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { API_KEY_SCOPES } from '../admin-kernel/api-key-scopes';
import { shortCode } from './webhook-formats';

/** An account reads its cards; an API key only with `cards:read` (`webhooks:read` alone is not a way to the keys). */
export function mayReadCards(actor: AdminPrincipal): boolean {
  return !actor.apiKey || actor.apiKey.scopes.includes(API_KEY_SCOPES.CARDS_READ);
}

/** An event's data with every `card_code` shortened as the chat robots show it (`ABCD…WXYZ`), at any depth. */
export function withShortCardKeys(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(withShortCardKeys);
  if (data === null || typeof data !== 'object') return data;
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [
      key,
      key === 'card_code' && typeof value === 'string' ? shortCode(value) : withShortCardKeys(value),
    ]),
  );
}
