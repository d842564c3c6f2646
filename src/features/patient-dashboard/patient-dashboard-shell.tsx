import Row from 'react-bootstrap/Row';
import { HEALTH_SCORE, NEXT_APPOINTMENT } from '../../../workers/core/constants';
import { SectionCard } from '../../components/section-card';
import { StatCard } from '../../components/stat-card';

const WAITING = 'Shown once your records are checked.';

// Columns as plain markup: react-bootstrap/Col does not load in Node, where the build pre-renders this.
// The dashboard's frame before the worker has answered: headings and cards, no record and no chain figure, and a
// line that says they are being checked. Pre-rendered for a returning user (src/app/prerender-shell.tsx).
export function PatientDashboardShell({ name }: { name: string }) {
  return (
    <>
      <div className="page-header">
        <h1 className="page-title">Welcome back, {name}</h1>
        <p className="page-subtitle">Checking your records on this device...</p>
      </div>
      <Row xs={2} xl={4} className="g-3 mb-4">
        <div className="col">
          <StatCard label="Total Records" value="..." icon="file" />
        </div>
        <div className="col">
          <StatCard label="Last Upload" value="..." icon="upload" tone="info" />
        </div>
        <div className="col">
          <StatCard label="Next Appointment" value={NEXT_APPOINTMENT} icon="calendar" tone="warning" sample />
        </div>
        <div className="col">
          <StatCard label="Health Score" value={HEALTH_SCORE} icon="heart" tone="success" sample />
        </div>
      </Row>
      <Row className="g-3">
        <div className="col-lg-8">
          <SectionCard title="Recent Medical Records" icon="file">
            <p className="text-body-secondary mb-0">{WAITING}</p>
          </SectionCard>
        </div>
        <div className="col-lg-4 d-flex flex-column gap-3">
          <SectionCard title="Health Overview" icon="heart">
            <p className="text-body-secondary mb-0">{WAITING}</p>
          </SectionCard>
          <SectionCard title="Blockchain Status" icon="box">
            <p className="text-body-secondary mb-0">Verifying the chain...</p>
          </SectionCard>
        </div>
      </Row>
    </>
  );
}
