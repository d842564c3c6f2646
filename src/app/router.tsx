import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RequireGuest } from '../auth/require-guest';
import { RequireRole } from '../auth/require-role';
import { RequireSession } from '../auth/require-session';
import { PageSpinner } from '../components/page-spinner';
import { RouteError } from './route-error';
import { APP_ROUTES, type AppRoute, type RouteAccess } from './routes';

function toRouteObject(route: AppRoute): RouteObject {
  const base = { path: route.path, handle: { title: route.title } };
  const load = route.lazy;
  if (load) return { ...base, lazy: async () => ({ Component: await load() }) };
  return { ...base, element: route.element };
}

// The route list, wrapped in its guards: guest -> login screen, everything else -> session, layout, role.
export function buildRoutes(routes: readonly AppRoute[] = APP_ROUTES): RouteObject[] {
  const pick = (access: RouteAccess) => routes.filter((route) => route.access === access).map(toRouteObject);
  return [
    {
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageSpinner label="Loading" />,
      children: [
        { element: <RequireGuest />, children: pick('guest') },
        {
          element: <RequireSession />,
          children: [
            {
              // code-split: the login screen never loads the layout
              lazy: async () => ({ Component: (await import('../layout/app-layout')).AppLayout }),
              children: [
                { element: <RequireRole role="patient" />, children: pick('patient') },
                { element: <RequireRole role="doctor" />, children: pick('doctor') },
                ...pick('signed-in'),
              ],
            },
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
