// A stored file is opened only as a type of the accepted list that agrees with its name: a "scan.pdf" whose
// stored type is text/html (as a chain from before the type rule may hold) never renders in the app's page.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentView, LedgerService } from '../../workers/api';
import { captureBlobs, seedRecords } from './record-seeds';
import { openLedger, renderApp, withOverrides } from './render-app';

let capture: ReturnType<typeof captureBlobs> | null = null;
afterEach(() => {
  capture?.restore();
  capture = null;
});

const retype = (document: DocumentView, fileType: string | undefined) => (fileType ? { ...document, fileType } : document);

// Sarah's records page over a worker whose listing and reading give scan.pdf the types named.
async function recordsWithTypes(types: { listed?: string; read?: string }) {
  const ledger = openLedger();
  await seedRecords(ledger.service, 'patient-1', [
    { title: 'Scan', files: [{ name: 'scan.pdf', type: '', text: '<script>parent.stolen = 1</script>' }] },
  ]);
  const { proxy } = ledger;
  const listRecords: LedgerService['listRecords'] = async (...args) => {
    const page = await proxy.listRecords(...args);
    const records = page.records.map((record) => ({
      ...record,
      documents: record.documents.map((document) => retype(document, types.listed)),
    }));
    return { ...page, records };
  };
  const readDocument: LedgerService['readDocument'] = async (id) => {
    const content = await proxy.readDocument(id);
    return { ...content, document: retype(content.document, types.read) };
  };
  const view = renderApp('/patient/records', {
    ledger,
    signedInAs: 'patient-1',
    proxy: withOverrides(proxy, { listRecords, readDocument }),
  });
  const section = await screen.findByRole('region', { name: 'Your Records' });
  await within(section).findByText('scan.pdf');
  return { ...view, section };
}

const rendered = () => document.querySelectorAll('iframe, object, embed, img.document-preview-image');

describe('a stored file whose type is not one of its extension', () => {
  it('offers only a download, given a type no browser renders', async () => {
    capture = captureBlobs();
    const { section, user } = await recordsWithTypes({ listed: 'text/html', read: 'text/html' });
    expect(within(section).queryByRole('button', { name: 'Open scan.pdf' })).not.toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Download scan.pdf' }));
    await waitFor(() => expect(capture?.downloads).toEqual([{ name: 'scan.pdf', href: 'blob:test/1' }]));
    expect(capture.blobs[0].type).toBe('application/octet-stream');
    expect(rendered()).toHaveLength(0);
  });

  it('is never previewed when the listing says PDF but the file read says text/html: it is downloaded instead', async () => {
    capture = captureBlobs();
    const { section, user } = await recordsWithTypes({ read: 'text/html' });
    await user.click(within(section).getByRole('button', { name: 'Open scan.pdf' }));
    await waitFor(() => expect(capture?.downloads).toEqual([{ name: 'scan.pdf', href: 'blob:test/1' }]));
    expect(capture.blobs.map((blob) => blob.type)).toEqual(['application/octet-stream']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(rendered()).toHaveLength(0);
  });
});

describe('a stored file whose type is a variant of its extension', () => {
  it("is previewed as the extension's usual type", async () => {
    capture = captureBlobs();
    const { section, user } = await recordsWithTypes({ listed: 'application/x-pdf', read: 'application/x-pdf' });
    await user.click(within(section).getByRole('button', { name: 'Open scan.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'scan.pdf' });
    expect(within(dialog).getByTitle('scan.pdf').tagName).toBe('IFRAME');
    expect(capture.blobs.map((blob) => blob.type)).toEqual(['application/pdf']);
  });
});
