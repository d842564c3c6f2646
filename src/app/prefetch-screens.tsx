import { useEffect } from 'react';
import type { Role } from '../../workers/core/types';
import { whenScreenShown } from '../components/pending-screen';
import { useSession } from '../auth/use-session';
import { APP_ROUTES, type AppRoute } from './routes';

const idle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);

// The code of every screen `role` can open, one screen per idle moment: requesting a screen inserts its chunks'
// preload links, and all of them in one task was a long task on a slow phone (100 ms at 4x CPU).
function prefetch(routes: readonly AppRoute[], role: Role, isCurrent: () => boolean): void {
  const next = routes.filter((route) => route.lazy && (route.access === role || route.access === 'signed-in'));
  const fetchNext = () => {
    const route = next.shift();
    if (!route?.lazy || !isCurrent()) return;
    // offline or a new version: the screen loads (or reports) when it is opened
    route.lazy().catch(() => undefined);
    idle(fetchNext);
  };
  idle(fetchNext);
}

// Once a signed-in user's first screen is shown with its data, the screens they may open next are fetched in the
// background, so a first visit waits for no download (npm run bench -- --screens).
export function PrefetchScreens({ routes = APP_ROUTES }: { routes?: readonly AppRoute[] }) {
  const role = useSession().user?.role;
  useEffect(() => {
    if (!role) return;
    let current = true;
    whenScreenShown(() => prefetch(routes, role, () => current));
    return () => {
      current = false;
    };
  }, [role, routes]);
  return null;
}
