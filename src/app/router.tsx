import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { RequireGuest } from '../auth/require-guest';
import { RequireRole } from '../auth/require-role';
import { RequireSession } from '../auth/require-session';
import { PageSpinner } from '../components/page-spinner';
import { RouteError } from './route-error';
import { loadedScreen, type ScreenLoad } from './screen-loads';
import { APP_LAYOUT, APP_ROUTES, type AppRoute, type RouteAccess } from './routes';

// One component per screen for the app's life: a new one on each render would load and suspend again.
const components = new WeakMap<object, ComponentType<never>>();

function screenComponent<P>(load: ScreenLoad<P>): ComponentType<P> {
  let screen = (components.get(load) as ComponentType<P> | undefined) ?? loadedScreen(load);
  // a load that failed (offline, a newer build) is tried again on the next visit, not remembered
  screen ??= lazy(() =>
    load().then(
      (Screen) => ({ default: Screen }),
      (error: unknown) => {
        components.delete(load);
        throw error;
      },
    ),
  );
  components.set(load, screen as ComponentType<never>);
  return screen;
}

// A code-split screen shows a spinner inside the layout while its code loads; the top bar and menu stay.
function routeElement(route: AppRoute): ReactNode {
  if (!route.lazy) return route.element;
  const Screen = screenComponent(route.lazy);
  return (
    <Suspense fallback={<PageSpinner label="Loading" />}>
      <Screen />
    </Suspense>
  );
}

function layoutElement(title: string | undefined): ReactNode {
  const Layout = screenComponent(APP_LAYOUT);
  return <Layout title={title} />;
}

// The layout titles the document after the route its location matches.
function TitledLayout({ routes }: { routes: readonly AppRoute[] }) {
  const { pathname } = useLocation();
  const title = routes.find((route) => matchPath(route.path, pathname))?.title;
  return layoutElement(title);
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

// The route list, wrapped in its guards: guest -> login screen, everything else -> session, layout, role.
export function AppRoutes({ routes = APP_ROUTES }: { routes?: readonly AppRoute[] }) {
  const { pathname } = useLocation();
  const pick = (access: RouteAccess) =>
    routes
      .filter((route) => route.access === access)
      .map((route) => <Route key={route.path} path={route.path} element={routeElement(route)} />);
  return (
    <ScreenErrorBoundary at={pathname}>
      <Suspense fallback={<PageSpinner label="Loading" />}>
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
      </Suspense>
    </ScreenErrorBoundary>
  );
}
