// An upload as a MedLedger version before sealing wrote it: title, description and file name in clear in the block.
import { encryptDocument } from '../../workers/core/documents';
import type { ClinicalRecord, Patient } from '../../workers/core/types';
import type { LedgerStore } from '../../workers/ledger/store';

export async function writeClearUpload(
  store: LedgerStore,
  patient: Patient,
  text: { title: string; description?: string; fileName: string },
  at = Date.now(),
): Promise<ClinicalRecord> {
  const documentId = crypto.randomUUID();
  const encrypted = await encryptDocument(new TextEncoder().encode('old scan').buffer);
  const upload: ClinicalRecord = {
    id: crypto.randomUUID(),
    patientId: patient.id,
    doctorId: patient.doctorId ?? '',
    type: 'test_report',
    title: text.title,
    description: text.description ?? '',
    files: [{ documentId, name: text.fileName, type: 'application/pdf', size: 8, cid: encrypted.ipfsHash }],
    timestamp: new Date(at).toISOString(),
  };
  await store.write('The upload was not saved', () => ({
    records: [upload], // the store writes what it is given: no sealing on this path
    documents: [{ id: documentId, encryptionKey: encrypted.encryptionKey }],
    contents: [{ id: documentId, bytes: encrypted.stored }],
    result: () => undefined,
  }));
  return upload;
}
