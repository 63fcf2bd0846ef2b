import { Navigate, Outlet, useLocation } from 'react-router';
import { wasSignedOut } from '../api/session';
import { useSession } from './use-session';

/** Pages behind sign-in: without a session, the sign-in page, which comes back here afterwards. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    if (wasSignedOut()) return <Navigate to="/sign-in" replace />;
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/sign-in?next=${next}`} replace />;
  }
  // The platform requires two-factor sign-in and this account has none: its security page and nowhere else.
  if (session.twoFactorEnrolmentRequired && location.pathname !== '/security') return <Navigate to="/security" replace />;
  return <Outlet />;
}
