import type { RecordView } from '../../workers/api';
import { userName } from './user-name';

// Uploads (prescriptions, test reports) are written by the patient they belong to.
export function addedByPatient(record: Pick<RecordView, 'type'>): boolean {
  return record.type === 'prescription' || record.type === 'test_report';
}

// Who added a record, as the viewer reads it: uploads are written by the patient, a grant by its doctor,
// the first diagnosis by MedLedger's setup (docs/product-copy.md).
export function addedByText(record: Pick<RecordView, 'type' | 'patientId' | 'doctorId'>, viewerId: string | undefined): string {
  if (record.type === 'diagnosis') return 'Added when MedLedger was set up';
  const author = addedByPatient(record) ? record.patientId : record.doctorId;
  return author === viewerId ? 'Added by you' : `Added by ${userName(author)}`;
}

// The care team a patient's record is for: their own doctor, whom the record is filed with.
export function careTeamText(record: Pick<RecordView, 'doctorId'>): string | null {
  return record.doctorId ? `Care team: ${userName(record.doctorId)}` : null;
}
