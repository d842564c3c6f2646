import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const SECTION_PREFIX = '#section-'; // SectionCard's heading ids

// A link to a card of this screen ("Connect this device") moves to it once the screen above it has its height.
export function useScrollToSection(ready = true) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || !hash.startsWith(SECTION_PREFIX)) return;
    document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash, ready]);
}
