// A stored file's type: one of the accepted types, agreeing with its extension, checked by the chain's rules; the
// upload and the import store the extension's usual type, so the rule and the app agree.
import { describe, expect, it } from 'vitest';
import { mineBlock } from '../../workers/core/chain';
import { readBundle } from '../../workers/core/fhir-import';
import { MIME_TYPES, fileTypeProblem, previewType, safeFileType } from '../../workers/core/file-types';
import { verifyLedger } from '../../workers/core/projection';
import type { Block, ChainRecord } from '../../workers/core/types';
import { validateUpload } from '../../workers/core/upload-request';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { SARAH, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { uploadInClear } from '../support/sealed-blocks';
import { createTestLedgerService } from '../support/test-ledger';

// Sarah's upload of `name` built in clear on purpose (a sealed upload's file type is '' on the chain, under the
// file's key: the rule reads an upload in clear, legal as her first), then with its first file's type set to `type`;
// each mined on the genesis, so hashes and links hold.
async function uploadRetyped(name: string, type: string) {
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage });
  await signInAs(service, SARAH);
  await service.upload(uploadOf('Scan', [fileInput(name)]));
  const blocks = (await storage.load()).blocks;
  const inClear = await uploadInClear(storage, blocks[1].data);
  const data = structuredClone(inClear);
  data.files[0].type = type;
  const chainOf = (record: ChainRecord): Block[] => [blocks[0], mineBlock(blocks[0], record, blocks[1].timestamp)];
  return { original: verifyLedger(chainOf(inClear), 2), retyped: verifyLedger(chainOf(data), 2) };
}

describe("the chain's rule for a file's type", () => {
  it('names a block whose scan.pdf is stored as text/html', async () => {
    const { original, retyped } = await uploadRetyped('scan.pdf', 'text/html');
    expect(original.firstInvalid).toBeUndefined();
    expect(retyped.firstInvalid).toEqual({ index: 1, reason: '"scan.pdf" has the type "text/html", not one of a .pdf file' });
  });

  it('names a block whose .png is stored as application/pdf, and one with no type', async () => {
    expect((await uploadRetyped('x-ray.png', 'application/pdf')).retyped.firstInvalid).toEqual({
      index: 1,
      reason: '"x-ray.png" has the type "application/pdf", not one of a .png file',
    });
    expect((await uploadRetyped('x-ray.png', '')).retyped.firstInvalid?.reason).toBe(
      '"x-ray.png" has the type "", not one of a .png file',
    );
  });

  it('accepts every type a browser gives for the extension, as chains written before kept them', async () => {
    for (const [extension, types] of Object.entries(MIME_TYPES)) {
      for (const type of types) expect(fileTypeProblem(`file${extension.toUpperCase()}`, type)).toBeNull();
    }
    expect((await uploadRetyped('scan.pdf', 'application/x-pdf')).retyped.firstInvalid).toBeUndefined();
  });

  it('refuses a type in another case or with parameters: the app stores the bare lower-case type', () => {
    expect(fileTypeProblem('scan.pdf', 'Application/PDF')).not.toBeNull();
    expect(fileTypeProblem('scan.pdf', 'application/pdf; charset=utf-8')).not.toBeNull();
  });
});

describe('the type an upload stores', () => {
  it("is the extension's usual type, whatever accepted variant or blank the browser gave", () => {
    const { files } = validateUpload(
      uploadOf('Scans', [
        fileInput('scan.pdf', 'a', 'application/x-pdf'),
        fileInput('photo.JPG', 'b', 'image/pjpeg'),
        fileInput('x-ray.png', 'c', ''),
        fileInput('note.docx', 'd', 'application/octet-stream'),
      ]),
    );
    expect(files.map((file) => file.type)).toEqual([
      'application/pdf',
      'image/jpeg',
      'image/png',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ]);
  });

  it("is the extension's usual type for an imported FHIR attachment too", () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'DocumentReference',
            status: 'current',
            description: 'Scan',
            content: [{ attachment: { contentType: 'application/x-pdf', title: 'scan.pdf', data: btoa('pdf') } }],
          },
        },
      ],
    };
    const [candidate] = readBundle(JSON.stringify(bundle)).records;
    const { files } = validateUpload({ title: candidate.title, type: candidate.type, files: candidate.files });
    expect(files[0]).toMatchObject({ name: 'scan.pdf', type: 'application/pdf' });
  });
});

describe('the type a stored file is opened with', () => {
  it("is the extension's usual type when the stored type agrees, and never a type outside the list", () => {
    expect(safeFileType('scan.pdf', 'application/x-pdf')).toBe('application/pdf');
    expect(safeFileType('scan.pdf', 'text/html')).toBe('application/octet-stream');
    expect(safeFileType('page.html', 'text/html')).toBe('application/octet-stream');
    expect(safeFileType('image.svg', 'image/svg+xml')).toBe('application/octet-stream');
  });

  it('is previewed only as a PDF, PNG or JPEG that agrees with its extension', () => {
    expect(previewType('scan.pdf', 'application/pdf')).toBe('application/pdf');
    expect(previewType('photo.jpeg', 'image/pjpeg')).toBe('image/jpeg');
    expect(previewType('scan.pdf', 'text/html')).toBeNull();
    expect(previewType('x-ray.png', 'application/pdf')).toBeNull();
    expect(previewType('note.docx', MIME_TYPES['.docx'][0])).toBeNull();
  });
});
