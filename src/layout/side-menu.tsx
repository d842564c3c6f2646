import { lazy, Suspense, useState } from 'react';
import Nav from 'react-bootstrap/Nav';
import OffcanvasBody from 'react-bootstrap/OffcanvasBody';
import OffcanvasHeader from 'react-bootstrap/OffcanvasHeader';
import OffcanvasTitle from 'react-bootstrap/OffcanvasTitle';
import { NavLink } from 'react-router-dom';
import type { User } from '../../workers/core/types';
import { Icon } from '../components/icon';
import { MENU_ITEMS } from './menu-items';
import { InitialsAvatar } from '../components/initials-avatar';
import { ROLE_LABELS } from './user-display';
import { NetworkStatus } from './network-status';
import { ResetDemoData } from './reset-demo-data';

interface SideMenuProps {
  user: User;
  show: boolean;
  onHide: () => void;
}

const SideMenuDrawer = lazy(() => import('./side-menu-drawer').then((module) => ({ default: module.SideMenuDrawer })));

// A fixed column from lg up; below that an Offcanvas opened from the top bar. Until the menu first opens, the
// column is the markup react-bootstrap's responsive Offcanvas renders when closed, without its modal code; from
// then on, and while that code loads, the Offcanvas itself.
export function SideMenu({ user, show, onHide }: SideMenuProps) {
  const [opened, setOpened] = useState(false);
  if (show && !opened) setOpened(true); // for good: the drawer then handles closing, and opening again
  const content = <SideMenuContent user={user} onHide={onHide} />;
  const closed = (
    <div id="side-menu" aria-labelledby="side-menu-title" className="side-menu offcanvas-lg offcanvas-start">
      {content}
    </div>
  );
  if (!opened) return closed;
  return (
    <Suspense fallback={closed}>
      <SideMenuDrawer show={show} onHide={onHide}>
        {content}
      </SideMenuDrawer>
    </Suspense>
  );
}

function SideMenuContent({ user, onHide }: { user: User; onHide: () => void }) {
  const items = MENU_ITEMS.filter((item) => item.roles.includes(user.role));
  return (
    <>
      <OffcanvasHeader closeButton closeLabel="Close menu">
        <OffcanvasTitle id="side-menu-title">Menu</OffcanvasTitle>
      </OffcanvasHeader>
      <OffcanvasBody className="side-menu-body">
        <div className="side-user d-md-none">
          <InitialsAvatar name={user.name} />
          <span className="user-meta min-w-0">
            <span className="user-name">{user.name}</span>
            <span className="user-role">{ROLE_LABELS[user.role]}</span>
          </span>
        </div>
        <nav aria-label="Main menu">
          <Nav className="flex-column gap-1" as="ul">
            {items.map((item) => (
              <Nav.Item as="li" key={item.path}>
                <Nav.Link as={NavLink} to={item.path} end onClick={onHide} className="side-link">
                  <Icon name={item.icon} />
                  {item.label}
                </Nav.Link>
              </Nav.Item>
            ))}
          </Nav>
        </nav>
        <NetworkStatus />
        <ResetDemoData role={user.role} onDone={onHide} />
      </OffcanvasBody>
    </>
  );
}
