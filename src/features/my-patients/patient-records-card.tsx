import { useCallback, useRef, useState } from 'react';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { Patient } from '../../../workers/core/types';
import { birthDate, DetailList, healthOverviewFields } from '../../components/detail-list';
import { DeviceOnlyNote } from '../../components/device-only-note';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { RecordDetailList } from '../../components/record-detail-list';
import { RecordsPagination } from '../../components/records-pagination';
import { SectionCard } from '../../components/section-card';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';

// One of the doctor's own patients: health overview beside their records, newest first, a page at a time.
export function PatientRecordsCard({ patient }: { patient: Patient }) {
  const [page, setPage] = useState(1);
  const listTop = useRef<HTMLHeadingElement>(null);
  const records = useLedgerQuery(
    useCallback((service: LedgerRemote) => service.listRecords(patient.id, { page }), [patient.id, page]),
    ['records', 'grants'], // another doctor's grant adds an emergency access record to the patient's list
    `patient-records:${patient.id}:${page}`,
  );

  return (
    <SectionCard title={patient.name} icon="user" flush>
      <Row className="g-0">
        <Col lg={4} className="patient-overview">
          <h3 className="patient-overview-title">Health Overview</h3>
          <DetailList
            stacked
            fields={[['Patient ID', patient.id], ['Date of Birth', birthDate(patient)], ...healthOverviewFields(patient)]}
          />
        </Col>
        <Col lg={8} className="patient-records">
          <h3 className="patient-records-title" ref={listTop}>
            Records{records.data ? <span className="patient-records-count"> ({records.data.total})</span> : null}
          </h3>
          <DeviceOnlyNote />
          {!records.data ? (
            records.error ? (
              <div className="p-3">
                <LoadError error={records.error} what={`${patient.name}'s records`} onRetry={records.reload} />
              </div>
            ) : (
              <PageSpinner label={`Loading ${patient.name}'s records`} />
            )
          ) : (
            <>
              <RecordDetailList records={records.data.records} empty={`${patient.name} has no records yet.`} />
              <RecordsPagination label={`${patient.name}'s records pages`} list={records.data} onPage={setPage} top={listTop} />
            </>
          )}
        </Col>
      </Row>
    </SectionCard>
  );
}
