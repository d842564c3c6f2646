import { useEffect, useRef, type RefObject } from 'react';
import Pagination from 'react-bootstrap/Pagination';
import type { RecordListPage } from '../../workers/api';
import './records-pagination.scss';

interface RecordsPaginationProps {
  label: string; // the navigation landmark's name
  list: Pick<RecordListPage, 'page' | 'total' | 'pageSize'>; // the page shown and how many there are in all
  onPage: (page: number) => void;
  top: RefObject<HTMLElement | null>; // moved into view when a page the reader chose here is shown
}

// Page numbers around the current one, with the first and the last: 1 … 4 5 6 … 20 (a gap is 0).
export function pageNumbers(page: number, pages: number): number[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const middle =
    page <= 4 ? [2, 3, 4, 5] : page >= pages - 3 ? [pages - 4, pages - 3, pages - 2, pages - 1] : [page - 1, page, page + 1];
  return [1, ...(middle[0] > 2 ? [0] : []), ...middle, ...(middle[middle.length - 1] < pages - 1 ? [0] : []), pages];
}

// Previous, page numbers and Next for a list of records. Every control stays a button (an end's is marked disabled
// without losing the focus), so a keyboard user turning pages keeps their place.
export function RecordsPagination({ label, list, onPage, top }: RecordsPaginationProps) {
  const { page, total, pageSize } = list;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const chosen = useRef(false);
  useEffect(() => {
    if (!chosen.current) return;
    chosen.current = false;
    const start = top.current;
    if (start && start.getBoundingClientRect().top < 0) start.scrollIntoView({ block: 'start' });
  }, [page, top]);
  if (pages <= 1) return null;

  const go = (to: number) => {
    if (to < 1 || to > pages || to === page) return;
    chosen.current = true;
    onPage(to);
  };
  const end = (disabled: boolean) => (disabled ? { className: 'disabled', 'aria-disabled': true } : {});
  const numbers = pageNumbers(page, pages);
  const between = numbers.filter((number) => number === 0).length === 2; // a gap each side: a phone shows 1 … 5 … 9
  return (
    <nav aria-label={label} className="records-pagination">
      <Pagination size="sm">
        <Pagination.Item as="button" type="button" aria-label="Previous" {...end(page <= 1)} onClick={() => go(page - 1)}>
          <span className="d-none d-sm-inline">Previous</span>
          <span className="d-sm-none">‹</span>
        </Pagination.Item>
        {numbers.map((number, i) =>
          number === 0 ? (
            <li key={`gap-${i}`} className="page-item disabled" aria-hidden="true">
              <span className="page-link">…</span>
            </li>
          ) : (
            <Pagination.Item
              key={number}
              as="button"
              type="button"
              className={number === page ? 'active' : between && Math.abs(number - page) === 1 ? 'page-near' : undefined}
              aria-current={number === page ? 'page' : undefined}
              aria-label={`Page ${number}`}
              onClick={() => go(number)}
            >
              {number}
            </Pagination.Item>
          ),
        )}
        <Pagination.Item as="button" type="button" aria-label="Next" {...end(page >= pages)} onClick={() => go(page + 1)}>
          <span className="d-none d-sm-inline">Next</span>
          <span className="d-sm-none">›</span>
        </Pagination.Item>
      </Pagination>
    </nav>
  );
}
