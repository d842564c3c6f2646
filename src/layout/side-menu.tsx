import Nav from 'react-bootstrap/Nav';
import Offcanvas from 'react-bootstrap/Offcanvas';
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

// A fixed column from lg up; below that an Offcanvas opened from the top bar.
export function SideMenu({ user, show, onHide }: SideMenuProps) {
  const items = MENU_ITEMS.filter((item) => item.roles.includes(user.role));
  return (
    <Offcanvas id="side-menu" show={show} onHide={onHide} responsive="lg" className="side-menu" aria-labelledby="side-menu-title">
      <Offcanvas.Header closeButton closeLabel="Close menu">
        <Offcanvas.Title id="side-menu-title">Menu</Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body className="side-menu-body">
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
      </Offcanvas.Body>
    </Offcanvas>
  );
}
