import { useEffect } from 'react';
import type { Role } from '../../workers/core/types';
import { whenNoScreenPending } from '../components/pending-screen';
import { useSession } from '../auth/use-session';
import { APP_ROUTES, type AppRoute } from '../app/routes';

const idle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);

// What the layout loads on demand, left out of the first screen: the side menu's drawer (below lg), the reset and
// logout dialogs. Small, and the drawer is likely next on a phone: fetched before the screens.
type Load = () => Promise<unknown>;
const LAYOUT_PARTS: readonly Load[] = [
  () => import('../layout/side-menu-drawer'),
  () => import('../layout/reset-demo-dialog'),
  () => import('../layout/logout-prompt'),
];

// The code of every screen `role` can open, one screen per idle moment: requesting a screen inserts its chunks'
// preload links, and all of them in one task was a long task on a slow phone (100 ms at 4x CPU).
function prefetch(routes: readonly AppRoute[], parts: readonly Load[], role: Role, isCurrent: () => boolean): void {
  const screens = routes.filter((route) => route.lazy && (route.access === role || route.access === 'signed-in'));
  const next = [...parts, ...screens.flatMap((route) => (route.lazy ? [route.lazy] : []))];
  const fetchNext = () => {
    const load = next.shift();
    if (!load || !isCurrent()) return;
    // offline or a new version: the part loads (or reports) when it is opened
    load().catch(() => undefined);
    idle(fetchNext);
  };
  idle(fetchNext);
}

// Once a signed-in user's first screen is shown with its data, the screens they may open next are fetched in the
// background, so a first visit waits for no download (npm run bench -- --screens).
export function PrefetchScreens({
  routes = APP_ROUTES,
  parts = LAYOUT_PARTS,
}: {
  routes?: readonly AppRoute[];
  parts?: readonly Load[];
}) {
  const role = useSession().user?.role;
  useEffect(() => {
    if (!role) return;
    let current = true;
    whenNoScreenPending(() => prefetch(routes, parts, role, () => current));
    return () => {
      current = false;
    };
  }, [role, routes, parts]);
  return null;
}
