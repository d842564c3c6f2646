import { useCallback } from 'react';
import type { Doctor } from '../../../workers/core/types';
import { useSession } from '../../auth/use-session';
import { LoadError } from '../../components/load-error';
import { PageSpinner } from '../../components/page-spinner';
import { SectionCard } from '../../components/section-card';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';
import { OtherPatients } from './other-patients';
import { PatientRecordsCard } from './patient-records-card';
import { SharedWithMe } from './shared-with-me';
import './my-patients.css';

// The doctor's own patients with their records (docs/decisions/real-screens.md); everyone else only through a patient's
// share or SOS emergency access.
export function MyPatientsPage() {
  const { user } = useSession();
  // Only its patient list is shown here, which comes from the user directory, not from the chain.
  const overview = useLedgerQuery(
    useCallback((service: LedgerRemote) => service.doctorOverview(), []),
    ['reset'],
    'my-patients',
  );
  if (!user || user.role !== 'doctor') return null;
  const doctor: Doctor = user;

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">My Patients</h1>
        <p className="page-subtitle">
          Your patients' health overview and records. You can open the files of records where you are the doctor.
        </p>
      </div>

      {!overview.data ? (
        overview.error ? (
          <LoadError error={overview.error} what="your patients" onRetry={overview.reload} />
        ) : (
          <PageSpinner label="Loading your patients" />
        )
      ) : overview.data.patients.length === 0 ? (
        <SectionCard title="Your Patients" icon="users">
          <div className="empty-state">No patients are assigned to you.</div>
        </SectionCard>
      ) : (
        <div className="my-patients">
          {overview.data.patients.map((patient) => (
            <PatientRecordsCard key={patient.id} patient={patient} />
          ))}
        </div>
      )}

      <div className="mt-4">
        <SharedWithMe />
      </div>

      <div className="mt-4">
        <OtherPatients doctor={doctor} />
      </div>
    </>
  );
}
