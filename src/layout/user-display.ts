export const ROLE_LABELS = { patient: 'Patient', doctor: 'Doctor' } as const;
