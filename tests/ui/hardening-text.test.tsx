// Issue 12 items 7 and 8 on the screens: each text field shows the worker's words before the call, and a file
// dropped outside the drop zone goes to the upload form (or, on other pages, opens nothing).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MAX_FILE_NAME_LENGTH, MAX_SEARCH_LENGTH } from '../../workers/core/constants';
import { seedRecords } from './record-seeds';
import { openLedger, renderApp, withOverrides } from './render-app';

const pdf = (name: string, type = 'application/pdf') => new File([new Uint8Array(16).fill(1)], name, { type });
const NFC_TITLE = 'R\u00E9sum\u00E9 of care';

async function openUpload() {
  const view = renderApp('/patient/upload', { signedInAs: 'patient-1' });
  await screen.findByRole('heading', { name: 'Upload Medical Documents' });
  return view;
}

const selectedNames = () =>
  within(screen.getByRole('list', { name: 'Selected files' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.selected-file-name')?.textContent);
const notAdded = () =>
  within(screen.getByRole('alert'))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
const uploadButton = () => screen.getByRole('button', { name: /Upload Documents|Uploading/ });
const titleField = () => screen.getByLabelText('Title') as HTMLInputElement;

describe('the upload form', () => {
  it("names a file whose name hides its direction, or is over 255 characters, as not added, in the worker's words", async () => {
    await openUpload();
    const long = `${'n'.repeat(MAX_FILE_NAME_LENGTH - 3)}.pdf`;
    fireEvent.drop(screen.getByTestId('drop-zone'), {
      dataTransfer: { files: [pdf('invoice\u202Efdp.pdf'), pdf(long), pdf('fine.pdf')], types: ['Files'] },
    });
    expect(notAdded()).toEqual([
      '"invoice[U+202E]fdp.pdf" has a hidden control or text-direction character in its name',
      `"${'n'.repeat(60)}…" has a name longer than ${MAX_FILE_NAME_LENGTH} characters`,
    ]);
    expect(selectedNames()).toEqual(['fine.pdf']);
  });

  it("shows the worker's message under a title with a hidden direction character and holds the upload", async () => {
    const { user } = await openUpload();
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [pdf('scan.pdf')], types: ['Files'] } });
    await user.click(titleField());
    await user.paste('Blood\u202Etest');
    expect(screen.getByText('The title contains a hidden control or text-direction character (U+202E).')).toBeInTheDocument();
    expect(titleField()).toHaveAttribute('aria-invalid', 'true');
    expect(uploadButton()).toBeDisabled();
  });

  it('holds the upload for a title of only zero-width characters, saying a title is missing', async () => {
    const { user } = await openUpload();
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [pdf('scan.pdf')], types: ['Files'] } });
    await user.click(titleField());
    await user.paste('\u200B\u200D\u2060');
    expect(uploadButton()).toBeDisabled();
    expect(screen.getByText('Add at least one file and a title to upload.')).toBeInTheDocument();
  });

  it("shows the worker's message under a description with a control character", async () => {
    const { user } = await openUpload();
    await user.click(screen.getByLabelText(/Description/));
    await user.paste('bell \u0007 here');
    expect(
      screen.getByText('The description contains a hidden control or text-direction character (U+0007).'),
    ).toBeInTheDocument();
  });

  it('uploads a file typed "APPLICATION/PDF; x=<b>" as application/pdf', async () => {
    const { user, ledger } = await openUpload();
    fireEvent.drop(screen.getByTestId('drop-zone'), {
      dataTransfer: { files: [pdf('shout.pdf', 'APPLICATION/PDF; x=<b>')], types: ['Files'] },
    });
    expect(selectedNames()).toEqual(['shout.pdf']);
    await user.type(titleField(), 'Typed');
    await user.click(uploadButton());
    await screen.findByRole('heading', { name: 'Upload successful' });
    const [newest] = (await ledger.service.listRecords('patient-1')).records;
    expect(newest.documents[0].fileType).toBe('application/pdf');
  });
});

describe('a file dropped outside the drop zone', () => {
  it('on the upload page goes to the form with the same checks, and the drop is taken (nothing opens)', async () => {
    const { location } = await openUpload();
    const heading = screen.getByRole('heading', { name: 'Upload Medical Documents' });
    expect(fireEvent.dragOver(heading, { dataTransfer: { files: [], types: ['Files'] } })).toBe(false);
    const taken = fireEvent.drop(heading, {
      dataTransfer: { files: [pdf('outside.pdf'), pdf('setup.exe', 'application/x-msdownload')], types: ['Files'] },
    });
    expect(taken).toBe(false); // cancelled: the browser does not open the file
    expect(selectedNames()).toEqual(['outside.pdf']);
    expect(notAdded()).toEqual(['"setup.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)']);
    expect(location().pathname).toBe('/patient/upload');
  });

  it('on another page is cancelled, so the browser neither opens the file nor leaves the app', async () => {
    const { location } = renderApp('/patient/dashboard', { signedInAs: 'patient-1' });
    const heading = await screen.findByRole('heading', { level: 1 });
    const transfer = { files: [pdf('stray.pdf')], types: ['Files'] };
    expect(fireEvent.dragOver(heading, { dataTransfer: transfer })).toBe(false);
    expect(fireEvent.drop(heading, { dataTransfer: transfer })).toBe(false);
    expect(location().pathname).toBe('/patient/dashboard');
  });

  it('that is text, not files, is left alone', async () => {
    await openUpload();
    const heading = screen.getByRole('heading', { name: 'Upload Medical Documents' });
    expect(fireEvent.dragOver(heading, { dataTransfer: { files: [], types: ['text/plain'] } })).toBe(true);
  });
});

describe('the emergency reason', () => {
  it("shows the worker's message for a hidden direction character and keeps Grant disabled", async () => {
    const { user } = renderApp('/doctor/emergency', { signedInAs: 'doctor-1' });
    await user.click(await screen.findByRole('radio', { name: /Sarah Johnson/ }));
    await user.click(screen.getByLabelText('Reason for emergency access'));
    await user.paste('ER \u202Eadmission');
    expect(screen.getByText('The reason contains a hidden control or text-direction character (U+202E).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Grant Emergency Access' })).toBeDisabled();
  });
});

describe('the patient search', () => {
  it(`takes at most ${MAX_SEARCH_LENGTH} characters and shows the worker's message for a control character without asking`, async () => {
    const ledger = openLedger();
    const searchPatients = vi.fn((query: string) => ledger.proxy.searchPatients(query));
    const { user } = renderApp('/doctor/emergency', {
      signedInAs: 'doctor-1',
      ledger,
      proxy: withOverrides(ledger.proxy, { searchPatients }),
    });
    const search = await screen.findByLabelText('Search patients by name or ID');
    expect(search).toHaveAttribute('maxlength', String(MAX_SEARCH_LENGTH));
    await screen.findByRole('radio', { name: /Sarah Johnson/ });
    const calls = searchPatients.mock.calls.length;
    await user.click(search);
    await user.paste('sa\u202Erah');
    expect(
      await screen.findByText('The search contains a hidden control or text-direction character (U+202E).'),
    ).toBeInTheDocument();
    expect(searchPatients.mock.calls.slice(calls).map(([query]) => query)).not.toContain('sa\u202Erah');
  });
});

describe('the records search', () => {
  it('finds an NFC title from an NFD query, takes at most 200 characters, and shows the message for a control character', async () => {
    const ledger = openLedger();
    await seedRecords(ledger.service, 'patient-1', [{ title: NFC_TITLE }, { title: 'Other' }]);
    const { user } = renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const section = await screen.findByRole('region', { name: 'Your Records' });
    const search = within(section).getByRole('searchbox', { name: 'Search' });
    expect(search).toHaveAttribute('maxlength', String(MAX_SEARCH_LENGTH));
    await user.click(search);
    await user.paste('RE\u0301SUME\u0301');
    await waitFor(() => expect(within(section).getByText('1 record')).toBeInTheDocument());
    expect(within(section).getByRole('heading', { name: NFC_TITLE })).toBeInTheDocument();
    await user.clear(search);
    await user.paste('a\u0007b');
    expect(
      await within(section).findByText('The search contains a hidden control or text-direction character (U+0007).'),
    ).toBeInTheDocument();
    expect(search).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('a file sent as "APPLICATION/PDF; x=<b>"', () => {
  it('keeps its preview: Medical Records offers Open for it', async () => {
    const ledger = openLedger();
    await seedRecords(ledger.service, 'patient-1', [
      { title: 'Typed', files: [{ name: 'shout.pdf', type: 'APPLICATION/PDF; x=<b>', text: '%PDF-1.4' }] },
    ]);
    renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const section = await screen.findByRole('region', { name: 'Your Records' });
    expect(await within(section).findByRole('button', { name: 'Open shout.pdf' })).toBeInTheDocument();
  });
});

describe('the tamper demo', () => {
  it("shows the worker's message for a hidden direction character and does not send that title", async () => {
    const { user } = renderApp('/patient/blockchain', { signedInAs: 'patient-1' });
    await user.click(await screen.findByRole('tab', { name: 'Tamper demo' }));
    await user.click(await screen.findByRole('button', { name: 'Open block 0' }));
    const title = await screen.findByLabelText('Title');
    await user.clear(title);
    expect(await screen.findByText('Enter a new title.')).toBeInTheDocument();
    await user.paste('Forged\u2066');
    expect(screen.getByText('The new title contains a hidden control or text-direction character (U+2066).')).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'true');
    // nothing was sent: block 0 keeps its title and stays valid
    const row = screen.getByRole('button', { name: 'Open block 0' }).closest('tr')!;
    expect(row).toHaveAttribute('data-valid', 'true');
    expect(within(row).getByText('Initial health assessment')).toBeInTheDocument();
  });
});
