import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ledgerError } from '../../workers/core/errors';
import { deferred, openLedger, renderApp, withOverrides } from './render-app';

const pdf = (name = 'blood-test.pdf', bytes = 2048) =>
  new File([new Uint8Array(bytes).fill(7)], name, { type: 'application/pdf' });

async function openUpload(options: Parameters<typeof renderApp>[1] = {}) {
  const view = renderApp('/patient/upload', { signedInAs: 'patient-1', ...options });
  await screen.findByRole('heading', { name: 'Upload Medical Documents' });
  return view;
}

const uploadButton = () => screen.getByRole('button', { name: /Upload Documents|Uploading/ });
const fileInput = () => screen.getByLabelText('Add files') as HTMLInputElement;

afterEach(() => {
  vi.useRealTimers();
});

describe('Upload', () => {
  it('keeps the upload button disabled until there is a file and a non-blank title', async () => {
    const { user } = await openUpload();
    expect(uploadButton()).toBeDisabled();
    await user.type(screen.getByLabelText('Title'), '   ');
    expect(uploadButton()).toBeDisabled();
    await user.upload(fileInput(), pdf());
    expect(uploadButton()).toBeDisabled(); // blank title, even with a file
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Blood test');
    expect(uploadButton()).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Remove blood-test.pdf' }));
    expect(uploadButton()).toBeDisabled();
  });

  it('accepts exactly .pdf, .jpg, .jpeg, .png, .doc and .docx and shows the 10MB hint', async () => {
    await openUpload();
    expect(fileInput()).toHaveAttribute('accept', '.pdf,.jpg,.jpeg,.png,.doc,.docx');
    expect(fileInput()).toHaveAttribute('multiple');
    expect(screen.getByText(/maximum 10MB each/)).toBeInTheDocument();
  });

  it('rejects a dropped file of the wrong type, naming it, and does not add it', async () => {
    await openUpload();
    const exe = new File([new Uint8Array(2 * 1024 * 1024)], 'setup.exe', { type: 'application/octet-stream' });
    // a drop bypasses the input's accept filter, so the check itself must catch it
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [exe], types: ['Files'] } });
    expect(screen.getByRole('alert')).toHaveTextContent(
      '"setup.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
    );
    expect(screen.queryByRole('list', { name: 'Selected files' })).not.toBeInTheDocument();
  });

  it('adds dropped files of an accepted type', async () => {
    await openUpload();
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [pdf('dropped.pdf')], types: ['Files'] } });
    const list = screen.getByRole('list', { name: 'Selected files' });
    expect(within(list).getByText('dropped.pdf')).toBeInTheDocument();
  });

  it('rejects an 11 MB file, naming it, and keeps the accepted files of the same pick', async () => {
    const { user } = await openUpload();
    const big = new File([new Uint8Array(11 * 1024 * 1024)], 'mri-scan.png', { type: 'image/png' });
    await user.upload(fileInput(), [big, pdf()]);
    expect(screen.getByRole('alert')).toHaveTextContent('"mri-scan.png" is larger than 10 MB');
    const list = screen.getByRole('list', { name: 'Selected files' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByText('blood-test.pdf')).toBeInTheDocument();
    expect(within(list).queryByText('mri-scan.png')).not.toBeInTheDocument();
  });

  it('lists the same file picked twice once, with its size', async () => {
    const { user } = await openUpload();
    const file = pdf('report.pdf', 3 * 1024);
    await user.upload(fileInput(), file);
    await user.upload(fileInput(), file);
    const items = within(screen.getByRole('list', { name: 'Selected files' })).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('3.0 KB');
  });

  it('stores every file, shows the block and the short record hash, then resets the form after 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, ledger } = await openUpload({ advanceTimers: vi.advanceTimersByTime });
    await user.upload(fileInput(), [pdf('a.pdf'), pdf('b.pdf', 4096)]);
    await user.type(screen.getByLabelText('Title'), '  Lab results  ');
    await user.click(uploadButton());

    const heading = await screen.findByRole('heading', { name: 'Upload successful' });
    const success = heading.closest('.upload-success') as HTMLElement;
    const records = (await ledger.service.listRecords('patient-1')).records;
    const stored = records.find((record) => record.title === 'Lab results');
    expect(stored?.documents.map((document) => document.fileName)).toEqual(['a.pdf', 'b.pdf']);
    expect(within(success).getByText(stored!.blockchainHash.slice(0, 8))).toHaveAttribute('title', stored!.blockchainHash);
    expect(within(success).getAllByText(`#${stored!.blockIndex}`).length).toBeGreaterThan(0);
    expect(within(success).getByText(/2 files/)).toBeInTheDocument();
    // block numbers start at #0, while the side menu counts blocks: say so, so "#1" beside "Blocks 2" adds up
    expect(within(success).getByText(/2 files/)).toHaveTextContent(
      `is secured in block #${stored!.blockIndex} (the chain's first block is #0).`,
    );

    await act(async () => {}); // flush the panel's effects, which start the reset timer
    act(() => vi.advanceTimersByTime(4900));
    expect(screen.getByRole('heading', { name: 'Upload successful' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('heading', { name: 'Upload successful' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('');
    expect(screen.queryByRole('list', { name: 'Selected files' })).not.toBeInTheDocument();
  });

  it('shows a progress indicator and a disabled button while uploading, and uploads once on a double click', async () => {
    const ledger = openLedger();
    const pending = deferred<never>();
    let calls = 0;
    const proxy = withOverrides(ledger.proxy, {
      upload: () => {
        calls += 1;
        return pending.promise;
      },
    });
    const { user } = await openUpload({ ledger, proxy });
    await user.upload(fileInput(), pdf());
    await user.type(screen.getByLabelText('Title'), 'Prescription');
    await user.dblClick(uploadButton());
    expect(await screen.findByRole('progressbar', { name: 'Upload in progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Uploading\.\.\./ })).toBeDisabled();
    expect(calls).toBe(1);
    pending.reject(new Error('stop'));
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
  });

  it('on failure shows the message, moves focus to it and keeps the whole form', async () => {
    const ledger = openLedger();
    const proxy = withOverrides(ledger.proxy, {
      upload: () => Promise.reject(ledgerError('StorageError', 'The browser refused to store the document: nothing was saved')),
    });
    const { user } = await openUpload({ ledger, proxy });
    await user.click(screen.getByRole('radio', { name: 'Test Report' }));
    await user.upload(fileInput(), pdf());
    await user.type(screen.getByLabelText('Title'), 'Chest X-ray');
    await user.type(screen.getByLabelText(/Description/), 'Follow-up');
    await user.click(uploadButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The browser refused to store the document: nothing was saved');
    expect(alert).toHaveFocus();
    expect(screen.getByLabelText('Title')).toHaveValue('Chest X-ray');
    expect(screen.getByLabelText(/Description/)).toHaveValue('Follow-up');
    expect(screen.getByRole('radio', { name: 'Test Report' })).toBeChecked();
    expect(within(screen.getByRole('list', { name: 'Selected files' })).getByText('blood-test.pdf')).toBeInTheDocument();
    expect(uploadButton()).toBeEnabled();
  });

  it('refuses a file whose type disagrees with its name, naming the file, and stores nothing', async () => {
    const { user, ledger } = await openUpload();
    const fake = new File([new Uint8Array(64).fill(1)], 'scan.pdf', { type: 'image/png' });
    await user.upload(fileInput(), fake);
    await user.type(screen.getByLabelText('Title'), 'Scan');
    await user.click(uploadButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('"scan.pdf"');
    expect((await ledger.service.listRecords('patient-1')).records).toHaveLength(1); // genesis only: nothing stored
  });
});
