import { useLayoutEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { Link } from 'react-router-dom';
import type { User } from '../../workers/core/types';
import { dashboardPath } from '../auth/dashboard-path';
import { Icon } from '../components/icon';
import { InitialsAvatar } from '../components/initials-avatar';
import { ActiveGrantBar } from './active-grant-bar';
import { ROLE_LABELS } from './user-display';

interface TopBarProps {
  user: User;
  menuOpen: boolean;
  onOpenMenu: () => void;
  onLogout: () => void;
}

// The top bar's usual height: src/app/theme.css's fallback for --ml-header-height.
const USUAL_HEADER_HEIGHT = 59;

// The side menu sticks below the top bar, whose height grows with the emergency session bar. Set only when it
// differs from the usual height: a custom property set on <html> restyles every element of the page (25 ms at 4x
// CPU on the dashboard's first load).
function useHeaderHeightVariable() {
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const header = ref.current;
    if (!header) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = header.offsetHeight;
      if (height === USUAL_HEADER_HEIGHT) root.style.removeProperty('--ml-header-height');
      else root.style.setProperty('--ml-header-height', `${height}px`);
    });
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--ml-header-height');
    };
  }, []);
  return ref;
}

export function TopBar({ user, menuOpen, onOpenMenu, onLogout }: TopBarProps) {
  const headerRef = useHeaderHeightVariable();
  return (
    <header className="top-bar" ref={headerRef}>
      {/* react-bootstrap's Navbar markup, without the component: it brings its Offcanvas and Collapse code along */}
      <nav aria-label="Top bar" className="border-bottom py-2 navbar navbar-expand navbar-light bg-white">
        <Container fluid className="gap-2 flex-nowrap">
          <Button
            variant="light"
            className="d-lg-none menu-toggle"
            onClick={onOpenMenu}
            aria-label="Open menu"
            aria-controls="side-menu"
            aria-expanded={menuOpen}
          >
            <Icon name="menu" size={20} />
          </Button>
          <Link to={dashboardPath(user.role)} className="brand me-0 navbar-brand">
            <span className="brand-mark">
              <Icon name="shield" size={18} />
            </span>
            MedLedger
          </Link>
          <span className="secured-pill" title="Blockchain Secured">
            <Icon name="lock" size={13} />
            <span className="secured-text">Blockchain Secured</span>
          </span>
          <div className="ms-auto d-flex align-items-center gap-2 gap-sm-3 min-w-0">
            <div className="user-chip min-w-0">
              <InitialsAvatar name={user.name} />
              <span className="user-meta min-w-0">
                <span className="user-name">{user.name}</span>
                <span className="user-role">{ROLE_LABELS[user.role]}</span>
              </span>
            </div>
            <Button variant="outline-secondary" size="sm" className="logout-button" onClick={onLogout}>
              <Icon name="logout" size={16} />
              <span className="logout-text">Logout</span>
            </Button>
          </div>
        </Container>
      </nav>
      {user.role === 'doctor' ? <ActiveGrantBar /> : null}
    </header>
  );
}
