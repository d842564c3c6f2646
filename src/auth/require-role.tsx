import { Navigate, Outlet } from 'react-router-dom';
import type { Role } from '../../workers/core/types';
import { dashboardPath } from './dashboard-path';
import { useSession } from './use-session';

// Guard: a user with the wrong role goes to their own dashboard. Sits under RequireSession.
export function RequireRole({ role }: { role: Role }) {
  const { user } = useSession();
  if (!user) return <Navigate to="/" replace />;
  if (user.role !== role) return <Navigate to={dashboardPath(user.role)} replace />;
  return <Outlet />;
}
