import { useRef, type ReactNode } from 'react';
import { useSideScroll } from './use-side-scroll';

// A box that scrolls sideways when its content (a wide table) is wider than the screen, and says so.
// While it scrolls, the keyboard can reach it (a labelled region in the tab order) and scroll it with the arrows.
export function SideScrollBox({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const side = useSideScroll(box);
  return (
    <>
      {side.overflowing ? <SideScrollHint /> : null}
      <div className={side.moreRight ? 'side-scroll more-right' : 'side-scroll'}>
        <div
          ref={box}
          className="side-scroll-box"
          onScroll={(event) => side.update(event.currentTarget)}
          {...(side.overflowing
            ? { tabIndex: 0, role: 'region', 'aria-label': `${label}: scroll sideways to see every column` }
            : {})}
        >
          {children}
        </div>
      </div>
    </>
  );
}

export function SideScrollHint() {
  return (
    <p className="side-scroll-hint" aria-hidden="true">
      Scroll sideways to see every column →
    </p>
  );
}
