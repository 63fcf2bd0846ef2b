import { api } from '../../api/client';
import { unwrap } from '../../api/errors';

/** The signed-in account's own password, changed with the current one (the service keeps this session). */
export function changeOwnPassword(current: string, next: string) {
  return unwrap(api.POST('/admin/v1/auth/password', { body: { current_password: current, new_password: next } }));
}
