import type { ClinicalRecord } from '../../../workers/core/types';

// A demo record for blocks the lab mines on the main thread (no patient data: the lab never touches records).
export function labRecord(index: number, timestamp: string): ClinicalRecord {
  return {
    id: `lab-${index}`,
    patientId: 'patient-1',
    doctorId: 'doctor-1',
    type: 'test_report',
    title: `Mining lab block ${index}`,
    description: 'Mined on the main thread for comparison',
    files: [],
    timestamp,
  };
}
