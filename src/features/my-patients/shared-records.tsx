import { useCallback, useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { Patient } from '../../../workers/core/types';
import { DeviceOnlyNote } from '../../components/device-only-note';
import { GrantedView } from '../../components/granted-view';
import { PageSpinner } from '../../components/page-spinner';
import { userMessage } from '../../ledger/error-message';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';

interface SharedRecordsProps {
  shareId: string;
  patient?: Patient; // from the list of shares; not there once the share has ended
  onClose: () => void;
}

// What a patient's share lets the doctor read, fetched through the worker, which checks the share and the clock
// and logs the read for the patient; once the share is revoked or expired, the next read is refused.
export function SharedRecords({ shareId, patient, onClose }: SharedRecordsProps) {
  // Not on 'access': each load records a read, which would refetch the view it was made for.
  const view = useLedgerQuery(
    useCallback((service: LedgerRemote) => service.sharedView(shareId), [shareId]),
    ['records', 'grants'],
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const name = view.data?.patient.name ?? patient?.name;

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <section className="shared-records" aria-labelledby="shared-records-title">
      <div className="shared-records-head">
        <h2 className="shared-records-title" id="shared-records-title" ref={headingRef} tabIndex={-1}>
          {name ? `Records shared by ${name}` : 'Shared records'}
        </h2>
        <Button variant="outline-primary" size="sm" onClick={onClose}>
          Close shared records
        </Button>
      </div>
      {view.error ? (
        // A refused read (revoked or expired) hides what was shown before.
        <Alert variant="danger" role="alert" className="mt-3 mb-0">
          {userMessage(view.error, 'The shared records could not be loaded. Please try again.')}
        </Alert>
      ) : !view.data ? (
        <PageSpinner label="Loading the shared records" />
      ) : (
        <GrantedView
          patient={view.data.patient}
          records={view.data.records}
          documentsReadable={view.data.documentsReadable}
          accessLevel={view.data.share.accessLevel}
          listNote={<DeviceOnlyNote />}
          readNote={`Each read under this share is recorded on the chain and shown to ${view.data.patient.name}.`}
        />
      )}
    </section>
  );
}
