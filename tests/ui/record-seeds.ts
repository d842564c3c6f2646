// Records arranged directly on the in-process service, and a capture of the blob URLs the screens make.
import { vi } from 'vitest';
import type { LedgerService } from '../../workers/api';
import type { UploadRecordType } from '../../workers/core/types';
import { signInById } from '../support/ledger-fixtures';

export const PDF_TEXT = '%PDF-1.4 blood count: haemoglobin 13.9 g/dL';

export function bytesOf(text: string): ArrayBuffer {
  return new TextEncoder().encode(text).buffer as ArrayBuffer;
}

interface SeedRecord {
  title: string;
  description?: string;
  type?: UploadRecordType;
  files?: { name: string; type: string; text: string }[];
}

// Uploads as the patient, in order (so the last one is the newest).
export async function seedRecords(service: LedgerService, patientId: string, records: SeedRecord[]) {
  await signInById(service, patientId);
  const results = [];
  for (const record of records) {
    const files = record.files ?? [
      { name: `${record.title.toLowerCase().replace(/\W+/g, '-')}.pdf`, type: 'application/pdf', text: PDF_TEXT },
    ];
    results.push(
      await service.upload({
        title: record.title,
        description: record.description,
        type: record.type ?? 'test_report',
        files: files.map((file) => ({ name: file.name, type: file.type, bytes: bytesOf(file.text) })),
      }),
    );
  }
  return results;
}

// Every Blob handed to URL.createObjectURL, and the name of every download a link started.
export function captureBlobs() {
  const blobs: Blob[] = [];
  const downloads: { name: string; href: string }[] = [];
  const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:test/${blobs.length}`;
  });
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, href: this.getAttribute('href') ?? '' });
  });
  return {
    blobs,
    downloads,
    revoke,
    async text(index: number) {
      return new TextDecoder().decode(await blobs[index].arrayBuffer());
    },
    restore() {
      create.mockRestore();
      revoke.mockRestore();
      click.mockRestore();
    },
  };
}
