import type { DoctorOverview, PatientOverview, SharedWithMe } from '../../workers/api';
import type { NamedQuery } from './use-ledger-query';

// Named queries asked in more than one place: by a screen, and by the start-up for a returning user who lands on it
// (src/start/first-data.ts, before the screen's code is here), or by two screens.

// The patient dashboard's data: the records and the emergency accesses' alert.
export const PATIENT_OVERVIEW: NamedQuery<PatientOverview> = {
  key: 'patient-overview',
  kinds: ['records', 'grants', 'access'],
  load: (service) => service.patientOverview(),
};

// The doctor dashboard's data: the patients' recent activity.
export const DOCTOR_OVERVIEW: NamedQuery<DoctorOverview> = {
  key: 'doctor-overview',
  kinds: ['records', 'grants'],
  load: (service) => service.doctorOverview(),
};

// The doctor's active shares (the dashboard's new ones, My Patients' list): shares and revokes are 'grants' changes,
// reads 'access'.
export const SHARED_WITH_ME: NamedQuery<SharedWithMe[]> = {
  key: 'shared-with-me',
  kinds: ['grants', 'access'],
  load: (service) => service.sharedWithMe(),
};
