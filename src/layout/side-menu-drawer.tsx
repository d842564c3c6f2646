import type { ReactNode } from 'react';
import Offcanvas from 'react-bootstrap/Offcanvas';

// The side menu as react-bootstrap's responsive Offcanvas: a drawer below lg, with its focus trap, Escape and
// backdrop. Loaded the first time the menu opens (src/layout/side-menu.tsx): its modal code is not part of the
// first screen.
export function SideMenuDrawer({ show, onHide, children }: { show: boolean; onHide: () => void; children: ReactNode }) {
  return (
    <Offcanvas id="side-menu" show={show} onHide={onHide} responsive="lg" className="side-menu" aria-labelledby="side-menu-title">
      {children}
    </Offcanvas>
  );
}
