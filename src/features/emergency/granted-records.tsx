import { useCallback } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { EmergencyGrant } from '../../../workers/core/types';
import { DeviceOnlyNote } from '../../components/device-only-note';
import { GrantedView } from '../../components/granted-view';
import { PageSpinner } from '../../components/page-spinner';
import { userMessage } from '../../ledger/error-message';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';

// What an active grant lets the doctor read (docs/decisions/enforced-emergency-access.md), fetched through the worker,
// which checks the grant and the clock and logs the read.
export function GrantedRecords({ grant }: { grant: EmergencyGrant }) {
  // Not on 'access': each load records a read, which would refetch the view it was made for.
  const view = useLedgerQuery(
    useCallback((service: LedgerRemote) => service.emergencyView(grant.id), [grant.id]),
    ['records', 'grants'],
  );

  // A refused read (expired or ended elsewhere) hides what was shown before.
  if (view.error) {
    return (
      <Alert variant="danger" className="mt-3">
        {userMessage(view.error, 'The patient’s records could not be loaded. Please try again.')}
      </Alert>
    );
  }
  if (!view.data) return <PageSpinner label="Loading the patient’s records" />;

  const { patient, records, documentsReadable } = view.data;
  return (
    <GrantedView
      patient={patient}
      records={records}
      documentsReadable={documentsReadable}
      accessLevel={grant.accessLevel}
      listNote={<DeviceOnlyNote />}
      readNote={`Each read under this emergency access is recorded on the chain and shown to ${patient.name}.`}
    />
  );
}
