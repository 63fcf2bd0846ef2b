import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { identityQuery } from '../../components/format';

export type TwoFactorEnrolment = Schemas['TwoFactorEnrolmentView'];

/**
 * The signed-in account with its two-factor state: the console's one identity query, but read as
 * fresh as any other here (not once for good), since the state changes on this page.
 */
export function meQuery() {
  return queryOptions({ ...identityQuery, staleTime: 0 });
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
