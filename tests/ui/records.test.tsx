import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import type { LedgerStorage } from '../../workers/storage/ledger-storage';
import { openLedger, renderApp } from './render-app';
import { PDF_TEXT, captureBlobs, seedRecords } from './record-seeds';
import { createClock, signInById } from '../support/ledger-fixtures';

let capture: ReturnType<typeof captureBlobs> | null = null;
afterEach(() => {
  capture?.restore();
  capture = null;
});

const recordsSection = () => screen.findByRole('region', { name: 'Your Records' });
const recordItems = (section: HTMLElement) =>
  within(section)
    .queryAllByRole('listitem')
    .filter((item) => item.classList.contains('record-detail'));
const titles = (section: HTMLElement) =>
  recordItems(section).map((item) => within(item).getByRole('heading', { level: 3 }).textContent);
const recordNamed = (section: HTMLElement, title: string) => {
  const item = recordItems(section).find((candidate) => within(candidate).queryByRole('heading', { name: title }));
  if (!item) throw new Error(`no record titled ${title}`);
  return item;
};

async function openRecords(seed: Parameters<typeof seedRecords>[2] = [], patientId = 'patient-1', storage?: LedgerStorage) {
  const ledger = openLedger(storage ? { storage } : {});
  const uploads = await seedRecords(ledger.service, patientId, seed);
  const view = renderApp('/patient/records', { ledger, signedInAs: patientId });
  const section = await recordsSection();
  await waitFor(() =>
    expect(recordItems(section).length + within(section).queryAllByText(/No records/).length).toBeGreaterThan(0),
  );
  return { ...view, section, uploads };
}

describe('Medical Records', () => {
  it('lists every record newest first with its date, who added it, the care team, files, block number and short hash', async () => {
    const { section, uploads } = await openRecords([
      { title: 'Lipid panel', description: 'Fasting sample' },
      {
        title: 'Statin prescription',
        type: 'prescription',
        files: [
          { name: 'statin.pdf', type: 'application/pdf', text: 'rx' },
          { name: 'label.png', type: 'image/png', text: 'png' },
        ],
      },
    ]);
    await waitFor(() => expect(titles(section)).toEqual(['Statin prescription', 'Lipid panel', 'Initial health assessment']));
    // the list settles as one answer: its details are read with retries, as any screen's settled state
    await waitFor(() => {
      const newest = recordNamed(section, 'Statin prescription');
      const { record } = uploads[1];
      expect(within(newest).getByText('Prescription')).toBeInTheDocument();
      // the patient uploaded it: the doctor's name is the care team, never the author
      expect(within(newest).getByText('Added by you')).toBeInTheDocument();
      expect(within(newest).getByText('Care team: Dr. Emily Carter')).toBeInTheDocument();
      expect(within(newest).queryByText('Dr. Emily Carter')).not.toBeInTheDocument();
      expect(within(newest).getByText('Verified on the chain')).toBeInTheDocument();
      expect(within(newest).getByText(`Block #${record.blockIndex}`)).toBeInTheDocument();
      expect(within(newest).getByText(record.blockchainHash.slice(0, 8))).toHaveAttribute('title', record.blockchainHash);
      expect(within(newest).getByText('statin.pdf')).toBeInTheDocument();
      expect(within(newest).getByText('label.png')).toBeInTheDocument();
      expect(within(newest).getByRole('time')).toHaveAttribute('dateTime', record.timestamp);
      expect(within(recordNamed(section, 'Lipid panel')).getByText('Fasting sample')).toBeInTheDocument();
      expect(within(section).getByText('3 records')).toBeInTheDocument();
    });
  });

  it('searches title and description and filters by type, with a "No records match" state that clears', async () => {
    const { section, user } = await openRecords([
      { title: 'Lipid panel', description: 'Fasting sample' },
      { title: 'Statin prescription', type: 'prescription' },
      { title: 'Chest X-ray', description: 'No fasting needed' },
    ]);
    const search = within(section).getByRole('searchbox', { name: 'Search' });
    await user.type(search, 'FASTING');
    await waitFor(() => expect(titles(section)).toEqual(['Chest X-ray', 'Lipid panel']));
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Type' }), 'prescription');
    expect(await within(section).findByText(/No records match/)).toBeInTheDocument();
    expect(titles(section)).toEqual([]);
    await user.click(within(section).getByRole('button', { name: 'Clear search and filter' }));
    await waitFor(() => expect(titles(section)).toHaveLength(4));
    expect(search).toHaveValue('');
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Type' }), 'diagnosis');
    await waitFor(() => expect(titles(section)).toEqual(['Initial health assessment']));
  });

  it('finds records by the care team’s name each card shows', async () => {
    const { section, user } = await openRecords([{ title: 'Lipid panel' }]);
    const search = within(section).getByRole('searchbox', { name: 'Search' });
    expect(within(recordNamed(section, 'Lipid panel')).getByText('Care team: Dr. Emily Carter')).toBeInTheDocument();
    await user.type(search, 'carter');
    await waitFor(() => expect(titles(section)).toEqual(['Lipid panel', 'Initial health assessment']));
    await user.clear(search);
    await user.type(search, 'Wilson');
    expect(await within(section).findByText(/No records match/)).toBeInTheDocument();
  });

  it('says "No records yet" with a link to Upload when the patient has none', async () => {
    const { section } = await openRecords([], 'patient-2');
    expect(within(section).getByText(/No records yet/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Upload a document' })).toHaveAttribute('href', '/patient/upload');
    expect(within(section).queryByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
  });

  it('opens a PDF in a preview from the bytes the worker decrypted', async () => {
    capture = captureBlobs();
    const { section, user } = await openRecords([{ title: 'Blood count' }]);
    await user.click(within(section).getByRole('button', { name: 'Open blood-count.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'blood-count.pdf' });
    // the viewer's own toolbar is off: it would title the file with the blob URL's id, the dialog names it
    expect(within(dialog).getByTitle('blood-count.pdf')).toHaveAttribute('src', 'blob:test/1#toolbar=0&navpanes=0&view=FitH');
    expect(capture.blobs[0].type).toBe('application/pdf');
    expect(await capture.text(0)).toBe(PDF_TEXT);
    expect(within(dialog).getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'blood-count.pdf');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(capture.revoke).toHaveBeenCalledWith('blob:test/1');
  });

  it('downloads a document under its file name with the original bytes; Word files offer download only', async () => {
    capture = captureBlobs();
    const { section, user } = await openRecords([
      { title: 'Discharge letter', files: [{ name: 'letter.docx', type: '', text: 'discharged in good health' }] },
    ]);
    const item = recordNamed(section, 'Discharge letter');
    expect(within(item).queryByRole('button', { name: 'Open letter.docx' })).not.toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Download letter.docx' }));
    await waitFor(() => expect(capture?.downloads).toEqual([{ name: 'letter.docx', href: 'blob:test/1' }]));
    expect(await capture.text(0)).toBe('discharged in good health');
    expect(capture.blobs[0].type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('deletes a file only after confirmation; the record stays, marked "file deleted"', async () => {
    const { section, user, ledger, uploads } = await openRecords([{ title: 'Old scan' }]);
    const item = recordNamed(section, 'Old scan');
    await user.click(within(item).getByRole('button', { name: 'Delete old-scan.pdf' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this file?' });
    expect(dialog).toHaveTextContent(`The record stays on the chain (block #${uploads[0].record.blockIndex})`);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const documentId = uploads[0].record.documentIds[0];
    expect((await ledger.service.readDocument(documentId)).document.deletedAt).toBeUndefined();

    await user.click(within(item).getByRole('button', { name: 'Delete old-scan.pdf' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this file?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete file' }));
    const notice = await screen.findByText(/“old-scan.pdf” was deleted/);
    await waitFor(() => expect(notice).toHaveFocus()); // after the confirmation has closed
    const after = recordNamed(section, 'Old scan');
    expect(await within(after).findByText('file deleted')).toBeInTheDocument();
    expect(within(after).queryByRole('button', { name: /old-scan.pdf/ })).not.toBeInTheDocument();
    expect(within(after).getByText(`Block #${uploads[0].record.blockIndex}`)).toBeInTheDocument();
    await expect(ledger.service.readDocument(documentId)).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('shows a clear message when a stored file fails its integrity check, and opens nothing', async () => {
    capture = captureBlobs();
    const inner = createMemoryStorage();
    // the stored ciphertext changed under the ledger: one byte flipped
    const storage: LedgerStorage = {
      ...inner,
      async readContent(id) {
        const bytes = await inner.readContent(id);
        if (!bytes) return bytes;
        const copy = new Uint8Array(bytes.slice(0));
        copy[copy.length - 1] ^= 0xff;
        return copy.buffer;
      },
    };
    const { section, user } = await openRecords([{ title: 'Tampered scan' }], 'patient-1', storage);
    await user.click(within(section).getByRole('button', { name: 'Open tampered-scan.pdf' }));
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent(
      /^Integrity check failed for “tampered-scan\.pdf”: .*content id Qm\w+.*\. The file was not opened\.$/,
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(capture.blobs).toHaveLength(0);
  });

  it('shows a record uploaded elsewhere without a reload', async () => {
    const { section, ledger } = await openRecords([]);
    await waitFor(() => expect(titles(section)).toEqual(['Initial health assessment']));
    await seedRecords(ledger.service, 'patient-1', [{ title: 'From the other tab' }]);
    await waitFor(() => expect(titles(section)).toEqual(['From the other tab', 'Initial health assessment']));
  });
});

describe('Emergency access history', () => {
  it('lists each emergency access with doctor, reason, level, start, end, status and what was read', async () => {
    const clock = createClock(Date.now());
    const ledger = openLedger({ now: clock.now });
    await signInById(ledger.service, 'doctor-2');
    const grant = await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Unconscious in the ER',
      accessLevel: 'basic',
      durationMinutes: 30,
    });
    await ledger.service.emergencyView(grant.id);
    clock.advance(5 * 60_000);
    const ended = await ledger.service.endEmergencyAccess(grant.id);
    renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });

    const history = await screen.findByRole('region', { name: 'Emergency Access History' });
    const entry = await within(history).findByRole('heading', { name: 'Dr. James Wilson', level: 3 });
    const item = entry.closest('li') as HTMLElement;
    expect(within(item).getByText('Ended', { selector: '.badge' })).toBeInTheDocument();
    const detail = (term: string) => within(item).getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(detail('Reason')).toHaveTextContent('Unconscious in the ER');
    expect(detail('Access Level')).toHaveTextContent(/^Basic/);
    expect(within(detail('Started') as HTMLElement).getByRole('time')).toHaveAttribute('dateTime', grant.createdAt);
    expect(within(detail('Ended') as HTMLElement).getByRole('time')).toHaveAttribute('dateTime', ended.endedAt);
    expect(within(item).getByText('Ended by Dr. James Wilson after 5 min')).toBeInTheDocument();
    expect(within(item).getByText('profile, health overview and 1 record')).toBeInTheDocument();
  });

  it("the dashboard alert's link opens Medical Records scrolled to the access history", async () => {
    const ledger = openLedger();
    await signInById(ledger.service, 'doctor-1');
    await ledger.service.requestEmergencyAccess({
      patientId: 'patient-1',
      reason: 'Chest pain',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
    try {
      const { user, location } = renderApp('/patient/dashboard', { ledger, signedInAs: 'patient-1' });
      await user.click(await screen.findByRole('link', { name: 'See the access history' }));
      const history = await screen.findByRole('region', { name: 'Emergency Access History' });
      expect(location()).toMatchObject({ pathname: '/patient/records', hash: '#access-history' });
      await within(history).findByRole('heading', { name: 'Dr. Emily Carter' });
      await waitFor(() => expect(scrolled.mock.contexts).toContain(history.parentElement));
    } finally {
      scrolled.mockRestore();
    }
  });

  it('says so when no doctor has used emergency access', async () => {
    renderApp('/patient/records', { signedInAs: 'patient-2' });
    const history = await screen.findByRole('region', { name: 'Emergency Access History' });
    expect(await within(history).findByText('No doctor has used emergency access to your records.')).toBeInTheDocument();
  });
});
