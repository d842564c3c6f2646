import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { EmergencyGrant } from '../../workers/core/types';
import { useSession } from '../auth/use-session';
import { useLedger } from '../ledger/use-ledger';
import { ChainBanner } from './chain-banner';
import { OwnLedgerBanner } from './own-ledger-banner';
import { focusHeadingWhenShown } from './focus-heading';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

// asked only of a doctor with an emergency session open: its code (a modal) loads then
const LogoutPrompt = lazy(() => import('./logout-prompt').then((module) => ({ default: module.LogoutPrompt })));

// The shell of every screen but login: top bar, side menu, main content. `title`: the screen's, for the document.
export function AppLayout({ title }: { title?: string }) {
  const session = useSession();
  const service = useLedger();
  const navigate = useNavigate();
  const [openGrants, setOpenGrants] = useState<EmergencyGrant[] | null>(null); // asking what to do with them
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname, hash } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);

  useEffect(() => {
    document.title = title ? `${title} · MedLedger` : 'MedLedger';
  }, [title]);

  // After a move between screens, or after sign-in (the login form is gone and focus fell to the body), start the
  // keyboard and screen reader at the new screen's heading.
  useEffect(() => {
    const main = mainRef.current;
    if (!main) return;
    const moved = pathname !== firstPath.current;
    if (!moved && document.activeElement !== document.body) return;
    if (moved) {
      // a new screen starts at its top; focusing <main> must not scroll its title under the sticky top bar
      if (!hash) window.scrollTo(0, 0);
      main.focus({ preventScroll: true });
    }
    return focusHeadingWhenShown(main);
  }, [pathname]); // eslint-disable-line react-hooks/exhaustive-deps -- a hash change alone is not a new screen

  if (!session.user) return null;

  const logout = async () => {
    setOpenGrants(null);
    await session.signOut();
    await navigate('/', { replace: true });
  };

  // A doctor with an emergency session open is asked first; asked fresh, since another tab may have ended it.
  const requestLogout = async () => {
    const open = session.user?.role === 'doctor' ? await service.activeGrants().catch(() => []) : [];
    if (open.length > 0) setOpenGrants(open);
    else await logout();
  };

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <TopBar
        user={session.user}
        menuOpen={menuOpen}
        onOpenMenu={() => setMenuOpen(true)}
        onLogout={() => void requestLogout()}
      />
      {openGrants ? (
        <Suspense fallback={null}>
          <LogoutPrompt grants={openGrants} onLogout={() => void logout()} onCancel={() => setOpenGrants(null)} />
        </Suspense>
      ) : null}
      <div className="app-body">
        <SideMenu user={session.user} show={menuOpen} onHide={() => setMenuOpen(false)} />
        <main id="main-content" className="app-main" tabIndex={-1} ref={mainRef}>
          <ChainBanner />
          <OwnLedgerBanner />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
