import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type TwoFactorEnrolment = Schemas['TwoFactorEnrolmentView'];

export const meKey = ['auth', 'me'];

/**
 * The signed-in account with its two-factor state. Shares its key with `identityQuery` (components/format)
 * but not its `staleTime: Infinity`: the state changes on this page, so it is read as fresh as any other.
 */
export function meQuery() {
  return queryOptions({ queryKey: meKey, queryFn: () => unwrap(api.GET('/admin/v1/auth/me')) });
}

/** A new secret (the QR code's and the typed key), pending until a first code confirms it. */
export function enrolTwoFactor() {
  return unwrap(api.POST('/admin/v1/auth/2fa/enrol'));
}

/** Turns two-factor sign-in on; answers the recovery codes, the one time they are shown. */
export function confirmTwoFactor(code: string) {
  return unwrap(api.POST('/admin/v1/auth/2fa/confirm', { body: { code } }));
}

export function disableTwoFactor(code: string) {
  return unwrap(api.POST('/admin/v1/auth/2fa/disable', { body: { code } }));
}
