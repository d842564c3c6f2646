import { Navigate, Outlet } from 'react-router-dom';
import { PageSpinner } from '../components/page-spinner';
import { dashboardPath } from './dashboard-path';
import { useSession } from './use-session';

// The login page is for visitors: a signed-in user goes straight to their dashboard.
export function RequireGuest() {
  const session = useSession();
  if (session.status === 'loading') return <PageSpinner label="Restoring your session" />;
  if (session.status === 'signed-in') return <Navigate to={dashboardPath(session.user.role)} replace />;
  return <Outlet />;
}
