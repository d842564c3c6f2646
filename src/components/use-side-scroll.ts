import { useCallback, useEffect, useState, type RefObject } from 'react';

export interface SideScroll {
  overflowing: boolean; // wider content than the box: it scrolls sideways
  moreRight: boolean; // columns still hidden on the right
  update: (box: HTMLElement) => void; // call on scroll
}

function measure(box: HTMLElement): { overflowing: boolean; moreRight: boolean } {
  const overflowing = box.scrollWidth > box.clientWidth + 1;
  return { overflowing, moreRight: overflowing && box.scrollLeft + box.clientWidth < box.scrollWidth - 1 };
}

// Whether a scrolling box hides content on its right, so the screen can show a cue that it scrolls.
export function useSideScroll(box: RefObject<HTMLElement | null>): SideScroll {
  const [state, setState] = useState({ overflowing: false, moreRight: false });
  const update = useCallback((element: HTMLElement) => {
    const next = measure(element);
    setState((previous) =>
      previous.overflowing === next.overflowing && previous.moreRight === next.moreRight ? previous : next,
    );
  }, []);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => update(element)); // also called once when observing starts
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [box, update]);
  return { ...state, update };
}
