import { useCallback, useEffect, useLayoutEffect, useRef, useState, type UIEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { BlockSummary, InvalidBlock } from '../../../workers/api';
import { SideScrollHint } from '../../components/side-scroll-box';
import { useSideScroll } from '../../components/use-side-scroll';
import { BlockRow, ROW_PX } from './block-row';
import { useBlockWindow, type LoadBlocks } from './use-block-window';

const VIEW_PX = 11 * ROW_PX; // header + 10 rows
const OVERSCAN = 8; // rows rendered above and below the visible ones

interface BlockTableProps {
  caption: string;
  total: number;
  load: LoadBlocks;
  generation: number; // bump when the chain changed: cached pages are dropped
  invalid?: InvalidBlock;
  scrollToIndex?: { index: number; request: number } | null; // a new request scrolls that block into view
  checks?: boolean; // a column says whether each block is valid and why not (the sandbox)
  overrides?: ReadonlyMap<number, BlockSummary>; // blocks newer than the cached pages, by index (live edits)
  openIndex?: number | null;
  onOpen?: (index: number) => void;
}

// The chain newest first, virtualized: only the rows in view (plus a few) are in the DOM and fetched.
export function BlockTable({
  caption,
  total,
  load,
  generation,
  invalid,
  scrollToIndex,
  checks = false,
  overrides,
  openIndex,
  onOpen,
}: BlockTableProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  // a row is ROW_PX high, or more where a long title wraps (on a phone): the spacers follow the rows' mean height
  const [rowPx, setRowPx] = useState(ROW_PX);
  const visibleRows = Math.ceil(VIEW_PX / ROW_PX);
  const first = Math.max(0, Math.floor(scrollTop / rowPx) - OVERSCAN);
  const last = Math.min(total - 1, Math.floor(scrollTop / rowPx) + visibleRows + OVERSCAN);
  const { blockAt, error } = useBlockWindow(load, generation, first, last);

  const side = useSideScroll(viewport);
  const { update: updateSide } = side;
  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      setScrollTop(event.currentTarget.scrollTop);
      updateSide(event.currentTarget);
    },
    [updateSide],
  );

  useLayoutEffect(() => {
    const measure = () => {
      const shown = [...(viewport.current?.querySelectorAll<HTMLElement>('tbody tr[data-block-index]') ?? [])];
      if (shown.length === 0) return;
      const mean = shown.reduce((sum, row) => sum + row.getBoundingClientRect().height, 0) / shown.length;
      setRowPx((before) => (Math.abs(before - mean) < 0.5 ? before : Math.max(ROW_PX, mean)));
    };
    measure();
    const table = viewport.current?.querySelector('table');
    if (!table || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure); // a turned phone or a wider window unwraps the titles
    observer.observe(table);
    return () => observer.disconnect();
  });

  useEffect(() => {
    if (!scrollToIndex || !viewport.current) return;
    const position = total - 1 - scrollToIndex.index;
    if (position < 0 || position >= total) return;
    // leave two rows above it, so the row is not hidden under the sticky header
    viewport.current.scrollTop = Math.max(0, (position - 2) * rowPx);
  }, [scrollToIndex, total]); // eslint-disable-line react-hooks/exhaustive-deps -- only a new request scrolls

  // the title comes second (after a sandbox block's check), where a phone shows it without scrolling; time and type after
  const time = <th scope="col">Time</th>;
  const type = <th scope="col">Type</th>;
  const rows = [];
  for (let position = first; position <= last; position += 1) {
    const index = total - 1 - position;
    rows.push(
      <BlockRow
        key={position}
        position={position}
        block={overrides?.get(index) ?? blockAt(position)}
        invalidIndex={invalid?.index}
        invalidReason={invalid?.reason}
        checks={checks}
        open={openIndex === index}
        onOpen={onOpen}
      />,
    );
  }

  return (
    <>
      {error && <Alert variant="danger">Could not load blocks: {error.message}</Alert>}
      {side.overflowing ? <SideScrollHint /> : null}
      <div className={side.moreRight ? 'side-scroll more-right' : 'side-scroll'}>
        <div
          ref={viewport}
          className="explorer-viewport border rounded"
          style={{ height: Math.min(VIEW_PX, ROW_PX + total * rowPx + 2), overflow: 'auto' }}
          onScroll={onScroll}
          tabIndex={0}
          role="region"
          aria-label={`${caption}: scroll to see older blocks`}
        >
          {/* rows light up only where a click opens them */}
          <table className={`table table-sm mb-0 explorer-table${onOpen ? ' table-hover' : ''}`} aria-rowcount={total + 1}>
            <caption className="visually-hidden">{caption}</caption>
            <thead className="sticky-top">
              <tr aria-rowindex={1} style={{ height: ROW_PX }}>
                <th scope="col">Block</th>
                {checks && <th scope="col">Check</th>}
                <th scope="col">Title</th>
                <th scope="col">Signed by</th>
                {!checks && time}
                {!checks && type}
                <th scope="col">Hash</th>
                <th scope="col">Previous hash</th>
                <th scope="col" className="text-end">
                  Nonce
                </th>
                {checks && time}
                {checks && type}
              </tr>
            </thead>
            <tbody>
              {first > 0 && <tr aria-hidden="true" style={{ height: first * rowPx }} />}
              {rows}
              {last < total - 1 && <tr aria-hidden="true" style={{ height: (total - 1 - last) * rowPx }} />}
            </tbody>
          </table>
        </div>
      </div>
    </>
  );
}
