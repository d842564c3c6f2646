import { useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link, useLocation } from 'react-router-dom';
import { RECORDS_PAGE_SIZE } from '../../../workers/core/constants';
import { checkText } from '../../../workers/core/text-input';
import { useSession } from '../../auth/use-session';
import { DeviceOnlyNote } from '../../components/device-only-note';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { RecordDetailList } from '../../components/record-detail-list';
import { RecordsPagination } from '../../components/records-pagination';
import { linkedRecordId } from '../../components/record-link';
import { SectionCard } from '../../components/section-card';
import { useScrollToSection } from '../../components/use-scroll-to-section';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';
import { AccessHistory } from './access-history';
import { DeleteDocumentModal, type DeleteTarget } from './delete-document-modal';
import { PortabilityToolbar } from './portability-toolbar';
import { RecordFilters, type TypeFilter } from './record-filters';
import { SealClearRecords } from './seal-clear-records';
import './records.css';

function countLabel(count: number): string {
  return count === 1 ? '1 record' : `${count} records`;
}

// All of the patient's records, newest first, a page at a time, searchable, with their files; then the access history
// (docs/decisions/real-screens.md).
export function RecordsPage() {
  const { user } = useSession();
  const patientId = user?.id ?? '';
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TypeFilter>('');
  const searchCheck = checkText('search', search); // the worker's rule: a refused search is said here, never sent
  const wanted = useDeferredValue(searchCheck.problem ? null : searchCheck.text); // typing stays responsive; the worker filters
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const deletedRef = useRef<HTMLDivElement>(null);
  const listTop = useRef<HTMLDivElement>(null);
  const highlightId = linkedRecordId(useLocation().hash); // "View record" after an upload
  // null: the page that lists the linked record (the first without one); a link followed later asks for its page again
  const [page, setPage] = useState<number | null>(null);
  const [linked, setLinked] = useState(highlightId);
  if (linked !== highlightId) {
    setLinked(highlightId);
    setPage(null);
  }

  const records = useLedgerQuery(
    useCallback(
      (service: LedgerRemote) =>
        wanted === null
          ? Promise.resolve({ records: [], total: 0, page: 1, pageSize: RECORDS_PAGE_SIZE })
          : service.listRecords(patientId, {
              search: wanted,
              ...(type ? { type } : {}),
              ...(page !== null ? { page } : highlightId ? { recordId: highlightId } : {}),
            }),
      [patientId, wanted, type, page, highlightId],
    ),
    ['records'],
    `records:${patientId}:${type}:${page ?? `#${highlightId ?? ''}`}:${wanted}`,
  );

  const [focusNotice, setFocusNotice] = useState(0);
  useScrollToSection(records.data !== undefined); // the backup's card sits below the list

  // Once the confirmation has closed, the notice takes the focus the deleted file's button had.
  useEffect(() => {
    if (focusNotice > 0) deletedRef.current?.focus();
  }, [focusNotice]);

  const filtered = search.trim() !== '' || type !== '';
  // another search or type lists other records: from their first page
  const searchFor = (text: string) => {
    setSearch(text);
    setPage(1);
  };
  const filterType = (chosen: TypeFilter) => {
    setType(chosen);
    setPage(1);
  };
  const clearFilters = () => {
    searchFor('');
    filterType('');
  };

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">Medical Records</h1>
        <p className="page-subtitle">
          All your medical records, newest first. Each file is unlocked on this device and checked to be exactly the file that was
          added before you see it.
        </p>
      </div>

      {user?.role === 'patient' ? <SealClearRecords /> : null}

      {deleted ? (
        <Alert variant="success" ref={deletedRef} tabIndex={-1} role="status" dismissible onClose={() => setDeleted(null)}>
          {deleted}
        </Alert>
      ) : null}

      <SectionCard
        title="Your Records"
        icon="file"
        flush
        action={
          <Link to="/patient/upload" className="btn btn-sm btn-outline-primary">
            Upload
          </Link>
        }
      >
        <div className="records-toolbar" ref={listTop}>
          <RecordFilters
            search={search}
            searchProblem={searchCheck.problem}
            type={type}
            onSearch={searchFor}
            onType={filterType}
          />
          <p className="records-count" aria-live="polite">
            {records.data ? countLabel(records.data.total) : ''}
          </p>
        </div>
        <DeviceOnlyNote />
        {!records.data ? (
          records.error ? (
            <div className="p-3">
              <LoadError error={records.error} what="your records" onRetry={records.reload} />
            </div>
          ) : (
            <PageSpinner label="Loading your records" />
          )
        ) : (
          <>
            <RecordDetailList
              records={records.data.records}
              highlightId={highlightId}
              onDeleteDocument={(record, document) => {
                setDeleted(null);
                setDeleting({ record, document });
              }}
              empty={
                filtered ? (
                  <>
                    No records match.{' '}
                    <Button variant="link" className="p-0 align-baseline" onClick={clearFilters}>
                      Clear search and filter
                    </Button>
                  </>
                ) : (
                  <>
                    No records yet. <Link to="/patient/upload">Upload a document</Link>
                  </>
                )
              }
            />
            <RecordsPagination label="Records pages" list={records.data} onPage={setPage} top={listTop} />
          </>
        )}
      </SectionCard>

      <AccessHistory />

      {user?.role === 'patient' ? (
        <div className="portability">
          <PortabilityToolbar patient={user} />
        </div>
      ) : null}

      <DeleteDocumentModal
        target={deleting}
        onCancel={() => setDeleting(null)}
        onDeleted={(target) => {
          setDeleting(null);
          setDeleted(`“${target.document.fileName}” was deleted. Its record stays on the chain, marked “file deleted”.`);
        }}
        onExited={(deletedOne) => {
          if (deletedOne) setFocusNotice((count) => count + 1);
        }}
      />
    </>
  );
}
