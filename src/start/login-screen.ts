import { APP_ROUTES } from '../app/routes';
import { screenLoaded } from '../app/screen-loads';
import { LoginPage } from '../features/login/login-page';

// The login comes with the app, not in a request of its own: a visitor's first screen, hydrated at once (and rendered
// by the build's pre-render, which cannot load code later).
export function loginComesWithTheApp(): void {
  const login = APP_ROUTES.find((route) => route.access === 'guest')?.lazy;
  if (!login) throw new Error('MedLedger: no route for the login screen');
  screenLoaded(login, LoginPage);
}
