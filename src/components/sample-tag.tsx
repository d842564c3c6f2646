import { useEffect, useRef, useState } from 'react';

const SAMPLE_EXPLANATION = 'Sample figure: fixed demo data, not taken from your records.';
const TOOLTIP_HALF_WIDTH = 108; // Bootstrap's tooltip is at most 200px wide, plus a margin from the window's edge
const ROOM_ABOVE = 136; // the sticky top bar and three lines of tooltip: nearer the window's top, it opens below the tag

interface Place {
  left: number; // the tooltip's centre, kept inside the window
  top: number;
  below: boolean;
  arrow: number; // the button's centre, from the tooltip's centre
}

// Marks a fixed demo figure (the sample constants of workers/core/constants.ts) so nobody mistakes it for real data.
// Its tooltip is Bootstrap's markup placed with position: fixed, which a card's overflow: hidden does not clip:
// react-bootstrap's OverlayTrigger would bring Popper (7 KiB gzip) into every dashboard's first load for one tooltip.
export function SampleTag() {
  const button = useRef<HTMLButtonElement>(null);
  const [place, setPlace] = useState<Place | null>(null);

  const show = () => {
    const box = button.current?.getBoundingClientRect();
    if (!box) return;
    const centre = box.left + box.width / 2;
    const left = Math.min(Math.max(centre, TOOLTIP_HALF_WIDTH), window.innerWidth - TOOLTIP_HALF_WIDTH);
    const below = box.top < ROOM_ABOVE;
    setPlace({ left, top: below ? box.bottom : box.top, below, arrow: centre - left });
  };
  const hide = () => setPlace(null);

  // Escape dismisses it (WCAG 1.4.13); a scroll would leave it behind the moved button
  useEffect(() => {
    if (!place) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && hide();
    window.addEventListener('keydown', onKey);
    window.addEventListener('scroll', hide, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', hide, true);
    };
  }, [place]);

  return (
    <>
      <button
        ref={button}
        type="button"
        className="sample-tag"
        aria-label={`Sample. ${SAMPLE_EXPLANATION}`}
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
      >
        Sample
      </button>
      {place ? (
        <span
          role="tooltip"
          className={`tooltip ${place.below ? 'bs-tooltip-bottom' : 'bs-tooltip-top'} show sample-tooltip`}
          style={{ left: place.left, top: place.top }}
        >
          <span className="tooltip-arrow" style={{ left: `calc(50% + ${place.arrow}px)` }} />
          <span className="tooltip-inner">{SAMPLE_EXPLANATION}</span>
        </span>
      ) : null}
    </>
  );
}
