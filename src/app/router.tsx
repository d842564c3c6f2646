import { Component, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { RequireGuest } from '../auth/require-guest';
import { RequireRole } from '../auth/require-role';
import { RequireSession } from '../auth/require-session';
import { PageSpinner } from '../components/page-spinner';
import { RouteError } from './route-error';
import { APP_ROUTES, type AppRoute, type RouteAccess } from './routes';

// code-split: the login screen never loads the layout
const AppLayout = lazy(() => import('../layout/app-layout').then((module) => ({ default: module.AppLayout })));

// One React.lazy per screen for the app's life: a new one on each render would load and suspend again.
const screens = new WeakMap<() => Promise<ComponentType>, ComponentType>();

function screenOf(load: () => Promise<ComponentType>): ComponentType {
  let screen = screens.get(load);
  if (!screen) {
    // a load that failed (offline, a newer build) is tried again on the next visit, not remembered
    screen = lazy(() =>
      load().then(
        (Screen) => ({ default: Screen }),
        (error: unknown) => {
          screens.delete(load);
          throw error;
        },
      ),
    );
    screens.set(load, screen);
  }
  return screen;
}

// A code-split screen shows a spinner inside the layout while its code loads; the top bar and menu stay.
function routeElement(route: AppRoute): ReactNode {
  if (!route.lazy) return route.element;
  const Screen = screenOf(route.lazy);
  return (
    <Suspense fallback={<PageSpinner label="Loading" />}>
      <Screen />
    </Suspense>
  );
}

// The layout titles the document after the route its location matches.
function TitledLayout({ routes }: { routes: readonly AppRoute[] }) {
  const { pathname } = useLocation();
  const title = routes.find((route) => matchPath(route.path, pathname))?.title;
  return <AppLayout title={title} />;
}

interface ScreenErrorProps {
  at: string; // the location's path: a move to another screen clears the error
  children: ReactNode;
}

interface ScreenErrorState {
  failed: boolean;
  at: string;
}

// A screen that throws (or whose code fails to load) shows RouteError in place of the app's screens.
class ScreenErrorBoundary extends Component<ScreenErrorProps, ScreenErrorState> {
  state: ScreenErrorState = { failed: false, at: this.props.at };

  static getDerivedStateFromError(): Partial<ScreenErrorState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: ScreenErrorProps, state: ScreenErrorState): Partial<ScreenErrorState> | null {
    return props.at === state.at ? null : { failed: false, at: props.at };
  }

  componentDidCatch(error: unknown) {
    console.error('MedLedger: a screen failed', error);
  }

  render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

// The built app's first render stops above the routes for a task, and the routes (their matching, the guards and the
// screen) render in the next: on a slow phone the one render of it all was the longest task after the first paint.
// The page's first task is over once a timer set during that render has fired.
let firstTask: Promise<void> | null = null;
let firstTaskOver = false;
function afterFirstTask(): Promise<void> {
  firstTask ??= new Promise((resolve) =>
    setTimeout(() => {
      firstTaskOver = true;
      resolve();
    }, 0),
  );
  return firstTask;
}

// Hydrating the pre-rendered login, it suspends once: Preact keeps the pre-rendered nodes meanwhile, as for a lazy
// screen.
function HydrateAfterFirstTask({ children }: { children: ReactNode }) {
  if (!firstTaskOver) throw afterFirstTask();
  return children;
}

// A fresh render (beneath a returning user's frame) shows a spinner instead: a first commit without one let the frame
// give way before the data (src/components/pending-screen.ts), and the boundary that suspension resumes suspended
// again for the layout's code, with no spinner between (Lighthouse: TBT 0-2 -> 29-54 ms).
function RenderAfterFirstTask({ children }: { children: ReactNode }) {
  const [over, setOver] = useState(firstTaskOver);
  useEffect(() => {
    if (over) return;
    let current = true;
    void afterFirstTask().then(() => {
      if (current) setOver(true);
    });
    return () => {
      current = false;
    };
  }, [over]);
  return over ? children : <PageSpinner label="Loading" />;
}

const AFTER_FIRST_TASK = { hydrate: HydrateAfterFirstTask, fresh: RenderAfterFirstTask } as const;
export type FirstRenderSplit = keyof typeof AFTER_FIRST_TASK;

// The route list, wrapped in its guards: guest -> login screen, everything else -> session, layout, role.
export function AppRoutes({
  routes = APP_ROUTES,
  splitFirstRender = false,
}: {
  routes?: readonly AppRoute[];
  splitFirstRender?: FirstRenderSplit | false; // the built app's first render (tests render at once)
}) {
  const { pathname } = useLocation();
  const pick = (access: RouteAccess) =>
    routes
      .filter((route) => route.access === access)
      .map((route) => <Route key={route.path} path={route.path} element={routeElement(route)} />);
  const Split = splitFirstRender ? AFTER_FIRST_TASK[splitFirstRender] : null;
  const routesTree = (
    <Routes>
      <Route element={<RequireGuest />}>{pick('guest')}</Route>
      <Route element={<RequireSession />}>
        <Route element={<TitledLayout routes={routes} />}>
          <Route element={<RequireRole role="patient" />}>{pick('patient')}</Route>
          <Route element={<RequireRole role="doctor" />}>{pick('doctor')}</Route>
          {pick('signed-in')}
        </Route>
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
  return (
    <ScreenErrorBoundary at={pathname}>
      <Suspense fallback={<PageSpinner label="Loading" />}>{Split ? <Split>{routesTree}</Split> : routesTree}</Suspense>
    </ScreenErrorBoundary>
  );
}
