import type { ReactNode } from 'react';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { RecordView } from '../../workers/api';
import type { AccessLevel, Patient } from '../../workers/core/types';
import { birthDate, DetailList, healthOverviewFields } from './detail-list';
import { RecordDetailList } from './record-detail-list';
import { SectionCard } from './section-card';
import './granted-view.css';

interface GrantedViewProps {
  patient: Patient;
  records: readonly RecordView[];
  documentsReadable: boolean;
  accessLevel: AccessLevel;
  readNote: ReactNode; // who is shown each read (the SOS panel and a share word it differently)
  listNote?: ReactNode; // above the records: that this device may not hold them all (DeviceOnlyNote)
}

// A patient's records as an emergency grant or a share lets a doctor read them: the profile with the health
// overview beside the records of the level (workers/core/access.ts), files openable only under full access.
export function GrantedView({ patient, records, documentsReadable, accessLevel, readNote, listNote }: GrantedViewProps) {
  const full = accessLevel === 'full';
  return (
    <div className="granted-view">
      <p className="small text-body-secondary mb-0">{readNote}</p>
      <Row className="g-3">
        <Col lg={4}>
          <SectionCard title="Patient Profile" icon="heart" fill>
            <DetailList
              stacked
              fields={[
                [
                  'Name',
                  <>
                    {patient.name} <span className="text-body-secondary">({patient.id})</span>
                  </>,
                ],
                ['Date of Birth', birthDate(patient)],
                ...healthOverviewFields(patient),
              ]}
            />
          </SectionCard>
        </Col>
        <Col lg={8}>
          <SectionCard title={full ? 'Complete History' : 'Recent Records'} icon="file" flush fill>
            {records.length === 0 ? null : ( // the empty list says so itself: no "All 0 records"
              <p className="granted-view-scope">
                {full
                  ? `${records.length === 1 ? 'The only record' : `All ${records.length} records`}, files included.`
                  : `The ${records.length === 1 ? 'newest record' : `${records.length} newest records`}; files need full access.`}
              </p>
            )}
            {listNote}
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
