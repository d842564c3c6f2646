import { Navigate, Outlet } from 'react-router-dom';
import { PageSpinner } from '../components/page-spinner';
import { useSession } from './use-session';

// Guard: no session -> the login page.
export function RequireSession() {
  const session = useSession();
  if (session.status === 'loading') return <PageSpinner label="Restoring your session" />;
  if (session.status === 'signed-out') return <Navigate to="/" replace />;
  return <Outlet />;
}
