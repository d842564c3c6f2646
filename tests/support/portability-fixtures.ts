// A ledger with something of everything to carry away: uploads (one of two files, one whose file was deleted),
// and an emergency access with a read and its end, for the export, import, backup and restore tests.
import type { ExportedFile, LedgerService } from '../../workers/api';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { CARTER, SARAH, WILSON, fileInput, signInAs, uploadOf } from './ledger-fixtures';
import { createTestLedgerService } from './test-ledger';

export async function ledgerWithHistory(overrides: Parameters<typeof createTestLedgerService>[0] = {}) {
  const storage = overrides.storage ?? createMemoryStorage();
  const service = createTestLedgerService({ ...overrides, storage });
  await signInAs(service, SARAH);
  await service.upload(
    uploadOf('Blood panel', [fileInput('panel.pdf', 'blood panel bytes', 'application/pdf')], { description: 'Fasting, March' }),
  );
  await service.upload(
    uploadOf('Amoxicillin', [fileInput('rx.png', 300_000), fileInput('rx-page-2.jpg', 'second page')], { type: 'prescription' }),
  );
  const deleted = await service.upload(uploadOf('Old scan', [fileInput('old.pdf', 'old')]));
  await service.deleteDocument(deleted.record.documentIds[0]);
  await signInAs(service, WILSON);
  const grant = await service.requestEmergencyAccess({
    patientId: SARAH.id,
    reason: 'Unconscious in the ER',
    accessLevel: 'full',
    durationMinutes: 30,
  });
  await service.emergencyView(grant.id);
  await service.endEmergencyAccess(grant.id);
  await signInAs(service, SARAH);
  return { service, storage, doctors: [CARTER, WILSON] };
}

export function joined(file: ExportedFile): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(file.size);
  let offset = 0;
  for (const part of file.parts) {
    bytes.set(new Uint8Array(part), offset);
    offset += part.byteLength;
  }
  return bytes;
}

export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

// Every medical record of the signed-in patient with the SHA-256 of each file's bytes (deleted files have none).
export async function recordsWithFileHashes(service: LedgerService, patientId: string) {
  const records = (await service.listRecords(patientId)).records;
  return Promise.all(
    records.map(async (record) => ({
      title: record.title,
      type: record.type,
      timestamp: record.timestamp,
      blockHash: record.blockchainHash,
      files: await Promise.all(
        record.documents.map(async (document) =>
          document.deletedAt
            ? `${document.fileName}: deleted`
            : `${document.fileName}: ${await sha256Hex((await service.readDocument(document.id)).bytes)}`,
        ),
      ),
    })),
  );
}
