import { Navigate, Outlet, useLocation } from 'react-router';
import { wasSignedOut } from '../api/session';
import { agentMayOpen } from './menu-items';
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
  // An agent sees its own pages only: any other address (the projects, a bookmark of its author's) leads to its shop.
  if (session.role === 'agent' && !agentMayOpen(location.pathname)) return <Navigate to="/agent" replace />;
  return <Outlet />;
}
