import type { RecordType } from '../../workers/core/types';

export const RECORD_TYPE_LABELS: Record<RecordType, string> = {
  diagnosis: 'Diagnosis',
  prescription: 'Prescription',
  test_report: 'Test Report',
  emergency_access: 'Emergency Access',
};

export const RECORD_TYPE_VARIANTS: Record<RecordType, string> = {
  diagnosis: 'secondary',
  prescription: 'primary',
  test_report: 'info',
  emergency_access: 'danger',
};
