// Issue 5, bad input on the upload screen: names shown as text, files checked before upload, stated limits.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MAX_DESCRIPTION_LENGTH, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD, MAX_TITLE_LENGTH } from '../../workers/core/constants';
import { renderApp } from './render-app';

const NAMES = {
  html: '<img src=x onerror=alert(1)>.pdf',
  rtl: 'تقرير الدم – בדיקת דם.pdf',
  emoji: '🩺 blood 🧪 test 👩🏽‍⚕️.jpg',
  long: `${'very-long-scan-name-'.repeat(12)}${'x'.repeat(11)}.pdf`, // 255: the longest name accepted (issue 12)
};

const file = (name: string, size = 16, type = 'application/pdf', lastModified = 1_700_000_000_000) =>
  new File([new Uint8Array(size).fill(1)], name, { type, lastModified });

async function openUpload() {
  const view = renderApp('/patient/upload', { signedInAs: 'patient-1' });
  await screen.findByRole('heading', { name: 'Upload Medical Documents' });
  return view;
}

// A drop skips the input's accept filter, as a real drop does, so every check is the screen's own.
function drop(files: File[]) {
  fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files, types: ['Files'] } });
}

const selected = () => within(screen.getByRole('list', { name: 'Selected files' })).getAllByRole('listitem');
const notAdded = () => screen.getByRole('alert');
const uploadButton = () => screen.getByRole('button', { name: /Upload Documents|Uploading/ });
const titleField = () => screen.getByLabelText('Title') as HTMLInputElement;
const descriptionField = () => screen.getByLabelText(/Description/) as HTMLTextAreaElement;

describe('file names with markup, right-to-left text, emoji and 255 characters', () => {
  it('are listed as plain text, in full, with the full name on the remove button and as a tooltip', async () => {
    const { container } = await openUpload();
    drop(Object.values(NAMES).map((name) => file(name, 16, name.endsWith('.jpg') ? 'image/jpeg' : 'application/pdf')));
    const items = selected();
    expect(items.map((item) => item.querySelector('.selected-file-name')?.textContent)).toEqual(Object.values(NAMES));
    expect(container.querySelector('img')).toBeNull();
    for (const name of Object.values(NAMES)) {
      const remove = screen.getByRole('button', { name: `Remove ${name}` });
      expect(remove).toHaveAttribute('title', `Remove ${name}`);
    }
    const longName = items[3].querySelector('.selected-file-name');
    expect(longName).toHaveAttribute('title', NAMES.long);
    expect(longName?.tagName).toBe('BDI'); // isolated: right-to-left text cannot reorder its row
  });

  it('in a rejection are plain text too, isolated from the message around them', async () => {
    const { container } = await openUpload();
    drop([file('<img src=x onerror=alert(1)>.exe', 16, 'application/x-msdownload')]);
    expect(notAdded()).toHaveTextContent('"<img src=x onerror=alert(1)>.exe" is not an accepted file type');
    expect(container.querySelector('img')).toBeNull();
    expect(within(notAdded()).getByText('"<img src=x onerror=alert(1)>.exe"').tagName).toBe('BDI');
  });

  it('upload and the success panel shows the markup title as text', async () => {
    const { user, ledger, container } = await openUpload();
    drop([file(NAMES.html), file(NAMES.rtl)]);
    const title = '<b onmouseover=alert(1)>Bold</b> & "quotes" 🫀';
    await user.click(titleField());
    await user.paste(title);
    await user.click(uploadButton());
    const panel = (await screen.findByRole('heading', { name: 'Upload successful' })).closest('.upload-success') as HTMLElement;
    expect(panel).toHaveTextContent(`${title} (2 files)`);
    expect(container.querySelector('b[onmouseover], img')).toBeNull();
    const [newest] = (await ledger.service.listRecords('patient-1')).records;
    expect(newest.title).toBe(title);
    expect(newest.documents.map((document) => document.fileName)).toEqual([NAMES.html, NAMES.rtl]);
  });
});

describe('file checks when files are added', () => {
  it('accepts .PDF in capitals and a file of exactly 10 MB', async () => {
    await openUpload();
    drop([file('SCAN.PDF'), file('exact.png', MAX_FILE_BYTES, 'image/png')]);
    expect(selected().map((item) => item.querySelector('.selected-file-name')?.textContent)).toEqual(['SCAN.PDF', 'exact.png']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('rejects a 0-byte file, 10 MB + 1 byte, report.pdf.exe and a type that disagrees, each named, keeping the good file', async () => {
    await openUpload();
    drop([
      file('empty.pdf', 0),
      file('over.png', MAX_FILE_BYTES + 1, 'image/png'),
      file('report.pdf.exe', 16, 'application/x-msdownload'),
      file('photo.pdf', 16, 'image/png'),
      file('good.pdf'),
    ]);
    const items = within(notAdded())
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      '"empty.pdf" is empty',
      '"over.png" is larger than 10 MB',
      '"report.pdf.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
      '"photo.pdf" is named .pdf but its type is image/png',
    ]);
    expect(selected().map((item) => item.querySelector('.selected-file-name')?.textContent)).toEqual(['good.pdf']);
  });

  it('lists the same file once whether it is dropped, picked, or both', async () => {
    const { user } = await openUpload();
    const same = file('report.pdf', 3 * 1024);
    drop([same]);
    await user.upload(screen.getByLabelText('Add files') as HTMLInputElement, same);
    drop([same, same]);
    expect(selected()).toHaveLength(1);
  });

  it(`lists ${MAX_FILES_PER_UPLOAD} files at once, uploads them and stores every one`, async () => {
    const { user, ledger } = await openUpload();
    drop(Array.from({ length: MAX_FILES_PER_UPLOAD }, (_, i) => file(`page-${i + 1}.pdf`, 32 + i)));
    expect(selected()).toHaveLength(MAX_FILES_PER_UPLOAD);
    await user.type(titleField(), 'Full scan');
    await user.click(uploadButton());
    await screen.findByRole('heading', { name: 'Upload successful' });
    const [newest] = (await ledger.service.listRecords('patient-1')).records;
    expect(newest.documents.map((document) => document.fileName)).toEqual(
      Array.from({ length: MAX_FILES_PER_UPLOAD }, (_, i) => `page-${i + 1}.pdf`),
    );
    expect(newest.documents.map((document) => document.fileSize)).toEqual(
      Array.from({ length: MAX_FILES_PER_UPLOAD }, (_, i) => 32 + i),
    );
  }, 20_000);

  it(`names each file beyond ${MAX_FILES_PER_UPLOAD} as not added and keeps the first ${MAX_FILES_PER_UPLOAD}`, async () => {
    await openUpload();
    drop(Array.from({ length: MAX_FILES_PER_UPLOAD - 1 }, (_, i) => file(`page-${i + 1}.pdf`)));
    drop([file('extra-a.pdf'), file('extra-b.pdf'), file(`page-1.pdf`)]);
    expect(selected()).toHaveLength(MAX_FILES_PER_UPLOAD);
    expect(
      within(notAdded())
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`"extra-b.pdf" was not added: an upload holds at most ${MAX_FILES_PER_UPLOAD} files`]);
    expect(screen.getByText('extra-a.pdf')).toBeInTheDocument();
  });
});

describe('title and description limits', () => {
  it('keeps a pasted 10,000-character title whole, says the limit and holds the upload until it is shortened', async () => {
    const { user } = await openUpload();
    drop([file('scan.pdf')]);
    await user.click(titleField());
    await user.paste('x'.repeat(10_000));
    expect(titleField().value).toHaveLength(10_000);
    expect(titleField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(`The title is longer than ${MAX_TITLE_LENGTH} characters.`)).toBeInTheDocument();
    expect(screen.getByText(`10000 / ${MAX_TITLE_LENGTH}`)).toBeInTheDocument();
    expect(uploadButton()).toBeDisabled();

    await user.clear(titleField());
    await user.paste('y'.repeat(MAX_TITLE_LENGTH));
    expect(titleField()).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(`The title is longer than ${MAX_TITLE_LENGTH} characters.`)).not.toBeInTheDocument();
    expect(uploadButton()).toBeEnabled();
  });

  it('keeps a pasted 10,000-character description whole and says the limit, with the title and files kept', async () => {
    const { user } = await openUpload();
    drop([file('scan.pdf')]);
    await user.type(titleField(), 'Blood test');
    await user.click(descriptionField());
    await user.paste('d'.repeat(10_000));
    expect(descriptionField().value).toHaveLength(10_000);
    expect(descriptionField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(`The description is longer than ${MAX_DESCRIPTION_LENGTH} characters.`)).toBeInTheDocument();
    expect(uploadButton()).toBeDisabled();
    expect(titleField().value).toBe('Blood test');
    expect(selected()).toHaveLength(1);
  });

  it('holds the upload for a title of only spaces and says what is missing', async () => {
    const { user } = await openUpload();
    drop([file('scan.pdf')]);
    await user.type(titleField(), '      ');
    expect(uploadButton()).toBeDisabled();
    expect(screen.getByText('Add at least one file and a title to upload.')).toBeInTheDocument();
    await waitFor(() => expect(selected()).toHaveLength(1));
  });
});
