import { api } from '../api/client';
import { unwrap } from '../api/errors';

/** Ends the token at the service too. */
export function signOutAtService() {
  return unwrap(api.POST('/admin/v1/auth/logout'));
}
