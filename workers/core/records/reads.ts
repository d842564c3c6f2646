// What the grant and share kinds share: a read under either, and a reason or note sealed to the patient and the doctor.
import { accessScope, readCountText, sentCount, sentRecords, titledReadText } from '../access';
import type { LedgerState } from '../ledger-state';
import { readerSealedProblem } from '../sealed-fields';
import { checkText } from '../text-input';
import type { EmergencyRecord, ReaderSealed, ShareRecord } from '../types';
import { clearTextIn, type SealedShape } from './shape';
import { hasSealed } from './state-lists';

// A grant's reason or a share's note: sealed to exactly its patient and doctor (nothing of it in clear, the record's
// description included, nor any field of `details` its kind does not list as clear), or in clear and valid before
// the patient announced an epoch.
export function readerTextProblem(
  state: LedgerState,
  record: EmergencyRecord | ShareRecord,
  details: { kind: SealedShape; value: object },
  text: string,
  sealed: ReaderSealed | undefined,
  field: 'reason' | 'note',
): string | null {
  const what = record.type === 'emergency_access' ? 'grant' : 'share';
  if (sealed !== undefined) {
    if (clearTextIn(details.kind, details.value) || record.description !== '')
      return `a sealed ${what} holds its ${field} in clear`;
    return readerSealedProblem(sealed, record.patientId, record.doctorId, record.id);
  }
  if (hasSealed(state, record.patientId)) return `a ${what} after sealing holds its ${field} in clear`;
  return text !== text.trim() || checkText(field, text).problem ? `a ${what} has no valid ${field}` : null;
}

// A read under a grant or a share covers no more than its level: the level's overview, or one stored document
// of the patient under full access.
export function readProblem(
  state: LedgerState,
  access: { patientId: string; accessLevel: 'basic' | 'full' },
  read: { read?: string; documentId?: string },
): string | null {
  if (typeof read.read !== 'string') return 'a read does not say what was read';
  const scope = accessScope(access.accessLevel);
  if (read.documentId === undefined) {
    // the fixed text of chains written before reads named what was sent, the titled text written before titles were
    // sealed, or exactly the count this state sent
    // a full read's titled text is its count text, so only a basic read (5 records at most) lists what it sent
    const legal =
      read.read === scope.legacyRead ||
      read.read === readCountText(access.accessLevel, sentCount(state, access.patientId, access.accessLevel)) ||
      (access.accessLevel === 'basic' &&
        read.read === titledReadText(access.accessLevel, sentRecords(state, access.patientId, access.accessLevel)));
    return legal ? null : 'a read names more than its level covers';
  }
  if (!scope.documents) return 'a document read lies outside basic access';
  const document = state.documents.get(read.documentId);
  if (!document || document.patientId !== access.patientId || document.deletedAt) {
    return "a read names a document that is not one of the patient's stored documents";
  }
  return null;
}
