import type { RecordType } from '../../workers/core/types';

export const RECORD_TYPE_LABELS: Record<RecordType, string> = {
  diagnosis: 'Diagnosis',
  prescription: 'Prescription',
  test_report: 'Test Report',
  emergency_access: 'Emergency Access',
  document_deleted: 'File Deleted',
  access_acknowledged: 'Alert Dismissed',
  access_shared: 'Shared Access',
  care_consent: 'Care Network Consent',
  resealed: 'Sealed Again',
};

export const RECORD_TYPE_VARIANTS: Record<RecordType, string> = {
  diagnosis: 'secondary',
  prescription: 'primary',
  test_report: 'info',
  emergency_access: 'danger',
  document_deleted: 'dark',
  access_acknowledged: 'light',
  access_shared: 'success',
  care_consent: 'light',
  resealed: 'light',
};
