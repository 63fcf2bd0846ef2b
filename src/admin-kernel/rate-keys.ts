import { fieldOf } from '../http/body-field';
import type { RateKeyOf } from '../http/throttling/route-rate.guard';
import { PRINCIPAL_KEY, type AdminPrincipal } from './admin-principal';

/** Admin sign-in: per username asked for (the account need not exist: the answer must not tell). */
export const byAdminUsername: RateKeyOf = (request) => {
  const username = fieldOf(request, 'username');
  return username === undefined ? undefined : `admin:${username.toLowerCase()}`;
};

/** Admin writes and orders: per signed-in account (AdminAuthGuard ran first). */
export const byPrincipal: RateKeyOf = (request) => (request[PRINCIPAL_KEY] as AdminPrincipal | undefined)?.id;

/**
 * A signed-in account's own password change: the same key as its sign-ins (byAdminUsername), so a
 * password typed at the login and at `POST /auth/password` draws on one allowance.
 */
export const bySignedInUsername: RateKeyOf = (request) => {
  const principal = request[PRINCIPAL_KEY] as AdminPrincipal | undefined;
  return principal ? `admin:${principal.username.toLowerCase()}` : undefined;
};
