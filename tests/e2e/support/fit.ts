// Whether a screen fits: every text node's box and every control's box inside its nearest card, table cell or
// clipping box, and inside the viewport; a select wide enough for its chosen option and a one-line field for its
// placeholder; no sideways page scroll.
// A box that scrolls on purpose (overflow auto or scroll) is checked as a whole, not its contents, and text cut
// with an ellipsis (a deliberate truncation that keeps the full text in a tooltip) is allowed.
import type { Page } from 'playwright-core';

export const FIT_SIZES = [
  { width: 320, height: 700, name: '320' },
  { width: 390, height: 844, name: '390' },
  { width: 768, height: 1024, name: '768' },
  { width: 1280, height: 800, name: '1280' },
  { width: 640, height: 400, name: '1280 at 200% zoom' }, // 200% zoom lays a 1280x800 screen out as 640x400 CSS px
] as const;

export function fitProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const viewportWidth = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${window.innerWidth}px viewport`);

    const overflowX = (element: Element) => getComputedStyle(element).overflowX;
    const scrolls = (element: Element) => ['auto', 'scroll'].includes(overflowX(element));
    // the nearest card, cell or box that clips what it holds
    const boundaryOf = (start: Element | null): Element | null => {
      for (let element = start; element && element !== document.body; element = element.parentElement) {
        if (element.matches('.card, td, th, .modal-content') || overflowX(element) !== 'visible') return element;
      }
      return null;
    };
    const inScroller = (start: Element | null) => {
      for (let element = start; element && element !== document.body; element = element.parentElement)
        if (scrolls(element)) return true;
      return false;
    };
    // not drawn, or drawn only for screen readers (a 1px clipped box, Bootstrap's visually-hidden pattern)
    const hidden = (element: Element) => {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return true;
      if (element.closest('option, script, style')) return true;
      for (let at: Element | null = element; at && at !== document.body; at = at.parentElement) {
        const box = at.getBoundingClientRect();
        if (box.width <= 1 && box.height <= 1 && getComputedStyle(at).overflow !== 'visible') return true;
      }
      return false;
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.classList.length ? `.${[...element.classList].join('.')}` : ''}`;
    const outside = (box: DOMRect, edge: DOMRect) =>
      box.right > edge.right + 1 || box.left < edge.left - 1 || box.bottom > edge.bottom + 1 || box.top < edge.top - 1;

    const check = (what: string, box: DOMRect, from: Element) => {
      if (box.width === 0 || box.height === 0) return;
      if (!inScroller(from) && (box.right > viewportWidth + 1 || box.left < -1)) {
        problems.push(`${what} runs past the viewport (${Math.round(box.left)}..${Math.round(box.right)} of ${viewportWidth}px)`);
        return;
      }
      const boundary = boundaryOf(from);
      if (!boundary || scrolls(boundary)) return;
      const edge = boundary.getBoundingClientRect();
      // horizontally only for cards and cells: their height follows their content
      const past = boundary.matches('.card, td, th, .modal-content')
        ? box.right > edge.right + 1 || box.left < edge.left - 1
        : outside(box, edge);
      if (past) problems.push(`${what} sticks out of ${name(boundary)}`);
    };

    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.textContent?.trim() || hidden(parent)) continue;
      if (getComputedStyle(boundaryOf(parent) ?? parent).textOverflow === 'ellipsis') continue;
      if (getComputedStyle(parent).textOverflow === 'ellipsis') continue;
      range.selectNodeContents(node);
      check(`text "${node.textContent.trim().slice(0, 40)}"`, range.getBoundingClientRect(), parent);
    }
    for (const control of document.querySelectorAll('button, input, select, textarea, img, svg, iframe, .btn, .badge, code')) {
      if (hidden(control)) continue;
      check(name(control), control.getBoundingClientRect(), control.parentElement ?? control);
    }
    // a box that scrolls sideways says so (the cue of src/components/use-side-scroll.ts)
    for (const element of document.querySelectorAll('*')) {
      if (!scrolls(element) || element.scrollWidth <= element.clientWidth + 1 || hidden(element)) continue;
      if (!element.parentElement?.matches('.side-scroll')) problems.push(`${name(element)} scrolls sideways with no cue`);
    }
    // the top bar's pieces and the session bar's never cover one another (a name folds into the menu first)
    const pieces = [
      ...document.querySelectorAll(
        '.top-bar .menu-toggle, .top-bar .brand, .top-bar .secured-pill, .top-bar .avatar, .top-bar .user-meta, .top-bar .logout-button, .active-grant-bar-row > *',
      ),
    ].filter((piece) => !hidden(piece) && getComputedStyle(piece).display !== 'none');
    pieces.forEach((piece, i) => {
      const box = piece.getBoundingClientRect();
      for (const other of pieces.slice(i + 1)) {
        if (piece.contains(other) || other.contains(piece)) continue;
        const them = other.getBoundingClientRect();
        const overlap =
          Math.min(box.right, them.right) - Math.max(box.left, them.left) > 1 &&
          Math.min(box.bottom, them.bottom) - Math.max(box.top, them.top) > 1;
        if (overlap) problems.push(`${name(piece)} overlaps ${name(other)}`);
      }
    });
    // a select's chosen option must fit beside its arrow
    const canvas = document.createElement('canvas').getContext('2d');
    for (const select of document.querySelectorAll('select')) {
      if (hidden(select) || !canvas) continue;
      const style = getComputedStyle(select);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const chosen = select.selectedOptions[0]?.textContent ?? '';
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (canvas.measureText(chosen).width > room + 1) problems.push(`select "${chosen}" is cut (${room}px of room)`);
    }
    // so must an empty field's placeholder, the only hint of what it takes: a copy of the field holding the
    // placeholder as its value overflows when it is cut (it has the search field's clear button, unlike canvas)
    for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
      if (hidden(input) || input.value !== '') continue;
      const probe = input.cloneNode() as HTMLInputElement;
      probe.removeAttribute('id');
      Object.assign(probe.style, { position: 'absolute', width: `${input.offsetWidth}px` });
      probe.value = input.placeholder;
      input.after(probe);
      if (probe.scrollWidth > probe.clientWidth + 1) problems.push(`placeholder "${input.placeholder}" is cut`);
      probe.remove();
    }
    return problems;
  });
}
