import { useCallback } from 'react';
import Alert from 'react-bootstrap/Alert';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { EmergencyGrant } from '../../../workers/core/types';
import { birthDate, DetailList, healthOverviewFields } from '../../components/detail-list';
import { PageSpinner } from '../../components/page-spinner';
import { RecordDetailList } from '../../components/record-detail-list';
import { SectionCard } from '../../components/section-card';
import { userMessage } from '../../ledger/error-message';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';
import './granted-records.css';

// What an active grant lets the doctor read (D9), fetched through the worker, which checks the grant and the clock and logs the read.
export function GrantedRecords({ grant }: { grant: EmergencyGrant }) {
  // Not on 'access': each load records a read, which would refetch the view it was made for.
  const view = useLedgerQuery(
    useCallback((service: LedgerRemote) => service.emergencyView(grant.id), [grant.id]),
    ['records', 'grants'],
  );

  // A refused read (expired or ended elsewhere) hides what was shown before.
  if (view.error) {
    return (
      <Alert variant="danger" className="granted-records-denied mt-3">
        {userMessage(view.error, 'The patient’s records could not be loaded. Please try again.')}
      </Alert>
    );
  }
  if (!view.data) return <PageSpinner label="Loading the patient’s records" />;

  const { patient, records, documentsReadable } = view.data;
  const full = grant.accessLevel === 'full';

  return (
    <div className="granted-records">
      <p className="small text-body-secondary mb-0">
        Each read under this emergency access is recorded on the chain and shown to {patient.name}.
      </p>
      <Row className="g-3">
        <Col lg={4}>
          <SectionCard title="Patient Profile" icon="heart" fill>
            <DetailList
              stacked
              fields={[
                ['Name', <>{patient.name} <span className="text-body-secondary">({patient.id})</span></>],
                ['Date of Birth', birthDate(patient)],
                ...healthOverviewFields(patient),
              ]}
            />
          </SectionCard>
        </Col>
        <Col lg={8}>
          <SectionCard title={full ? 'Complete History' : 'Recent Records'} icon="file" flush fill>
            <p className="granted-records-scope">
              {full
                ? `${records.length === 1 ? 'The only record' : `All ${records.length} records`}, files included.`
                : `The ${records.length === 1 ? 'newest record' : `${records.length} newest records`}; files need full access.`}
            </p>
            <RecordDetailList
              records={records}
              documentsWithheld={!documentsReadable}
              empty={`${patient.name} has no records yet.`}
            />
          </SectionCard>
        </Col>
      </Row>
    </div>
  );
}
