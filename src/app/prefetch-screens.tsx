import { useEffect } from 'react';
import type { Role } from '../../workers/core/types';
import { whenNoScreenPending } from '../components/pending-screen';
import { useSession } from '../auth/use-session';
import { APP_ROUTES, type AppRoute } from './routes';

const idle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);

// The code of every screen `role` can open, requested at once when the browser is next idle (each runs as it arrives).
function prefetch(routes: readonly AppRoute[], role: Role, isCurrent: () => boolean): void {
  idle(() => {
    if (!isCurrent()) return;
    for (const route of routes) {
      if (!route.lazy || (route.access !== role && route.access !== 'signed-in')) continue;
      // offline or a new version: the screen loads (or reports) when it is opened
      route.lazy().catch(() => undefined);
    }
  });
}

// Once a signed-in user's first screen is shown with its data, the screens they may open next are fetched in the
// background, so a first visit waits for no download (npm run bench -- --screens).
export function PrefetchScreens({ routes = APP_ROUTES }: { routes?: readonly AppRoute[] }) {
  const role = useSession().user?.role;
  useEffect(() => {
    if (!role) return;
    let current = true;
    whenNoScreenPending(() => prefetch(routes, role, () => current));
    return () => {
      current = false;
    };
  }, [role, routes]);
  return null;
}
