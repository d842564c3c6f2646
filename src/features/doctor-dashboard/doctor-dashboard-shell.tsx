import Row from 'react-bootstrap/Row';
import { APPOINTMENTS_TODAY, EMERGENCY_ALERTS } from '../../../workers/core/constants';
import type { Doctor } from '../../../workers/core/types';
import { SectionCard } from '../../components/section-card';
import { StatCard } from '../../components/stat-card';

const WAITING = 'Shown once the records are checked.';

// Columns as plain markup: react-bootstrap/Col does not load in Node, where the build pre-renders this.
// The dashboard's frame before the worker has answered: the doctor's own details (the user directory, not the
// chain), headings and cards, no record and no chain figure. Pre-rendered for a returning user
// (src/app/prerender-shell.tsx).
export function DoctorDashboardShell({ user }: { user: Doctor }) {
  return (
    <>
      <div className="page-header">
        <h1 className="page-title">Welcome, {user.name}</h1>
        <p className="page-subtitle doctor-credentials">
          <span>{user.specialization}</span>
          <span>{user.hospital}</span>
          <span>License No. {user.licenseNumber}</span>
        </p>
      </div>
      <Row xs={2} xl={4} className="g-3 mb-3">
        <div className="col">
          <StatCard label="Total Patients" value="..." icon="users" />
        </div>
        <div className="col">
          <StatCard label="Records Today" value="..." icon="file" tone="info" />
        </div>
        <div className="col">
          <StatCard label="Appointments" value={APPOINTMENTS_TODAY} icon="calendar" tone="warning" sample />
        </div>
        <div className="col">
          <StatCard label="Emergency Alerts" value={EMERGENCY_ALERTS} icon="alert" tone="danger" sample />
        </div>
      </Row>
      <p className="active-sessions-line">Checking your records on this device...</p>
      <Row className="g-3">
        <div className="col-xl-7">
          <SectionCard title="Recent Patient Activity" icon="activity" fill>
            <p className="text-body-secondary mb-0">{WAITING}</p>
          </SectionCard>
        </div>
        <div className="col-xl-5">
          <SectionCard title="Your Patients" icon="users" fill>
            <p className="text-body-secondary mb-0">{WAITING}</p>
          </SectionCard>
        </div>
      </Row>
    </>
  );
}
