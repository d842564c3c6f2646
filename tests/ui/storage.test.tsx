import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StorageCard } from '../../src/features/profile/storage-card';
import { renderApp } from './render-app';

const MB = 1024 * 1024;

// A stand-in for navigator.storage: `persist` answers what the browser would decide.
function fakeStorage({ usage = 3 * MB, quota = 500 * MB, persisted = false, grants = false } = {}) {
  let kept = persisted;
  const storage = {
    estimate: vi.fn(async () => ({ usage, quota })),
    persisted: vi.fn(async () => kept),
    persist: vi.fn(async () => {
      kept = grants;
      return grants;
    }),
  };
  Object.defineProperty(navigator, 'storage', { value: storage, configurable: true });
  return storage;
}

function fields(section: HTMLElement): Record<string, string> {
  return Object.fromEntries(
    within(section)
      .getAllByRole('term')
      .map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']),
  );
}

const card = () => screen.findByRole('region', { name: 'Storage on This Device' });

afterEach(() => {
  Reflect.deleteProperty(navigator, 'storage');
});

describe('Storage on My Profile', () => {
  it('shows used and available storage, that it is not persistent, and what to do about it', async () => {
    fakeStorage({ usage: 3 * MB, quota: 500 * MB, persisted: false });
    render(<StorageCard />);
    const section = await card();
    await within(section).findByText('Used');
    expect(fields(section)).toEqual({
      Used: '3.0 MB',
      Available: '497.0 MB',
      Persistent: 'No: the browser may delete it',
    });
    expect(within(section).getByText(/install MedLedger/)).toHaveTextContent(/make a backup of your records/);
  });

  it('asks the browser to keep the data on request, and shows the new state once it agrees', async () => {
    const storage = fakeStorage({ persisted: false, grants: true });
    const user = userEvent.setup();
    render(<StorageCard />);
    const section = await card();
    await user.click(await within(section).findByRole('button', { name: 'Ask the browser to keep the data' }));
    expect(storage.persist).toHaveBeenCalledOnce();
    await within(section).findByText('Yes: the browser keeps this data until you delete it');
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says so when the browser declines, and keeps the warning', async () => {
    fakeStorage({ persisted: false, grants: false });
    const user = userEvent.setup();
    render(<StorageCard />);
    const section = await card();
    await user.click(await within(section).findByRole('button', { name: 'Ask the browser to keep the data' }));
    expect(await within(section).findByRole('status')).toHaveTextContent('The browser declined for now.');
    expect(fields(section).Persistent).toBe('No: the browser may delete it');
  });

  it('shows no warning when the storage is persistent', async () => {
    fakeStorage({ usage: 1536, quota: 2 * 1024 * MB, persisted: true });
    render(<StorageCard />);
    const section = await card();
    await within(section).findByText('Used');
    expect(fields(section)).toEqual({
      Used: '1.5 KB',
      Available: '2.0 GB',
      Persistent: 'Yes: the browser keeps this data until you delete it',
    });
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says what it cannot tell where the browser has no Storage API', async () => {
    render(<StorageCard />);
    const section = await card();
    expect(await within(section).findByText(/This browser does not say how much storage/)).toBeInTheDocument();
  });

  it('asks the browser to keep its storage after an upload', async () => {
    const storage = fakeStorage({ persisted: false, grants: true });
    const { user } = renderApp('/patient/upload', { signedInAs: 'patient-1' });
    await screen.findByRole('heading', { name: 'Upload Medical Documents' });
    expect(storage.persist).not.toHaveBeenCalled();
    await user.upload(screen.getByLabelText('Add files'), new File(['%PDF-1.4'], 'scan.pdf', { type: 'application/pdf' }));
    await user.type(screen.getByLabelText('Title'), 'Scan');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    await screen.findByRole('heading', { name: 'Upload successful' });
    await vi.waitFor(() => expect(storage.persist).toHaveBeenCalledOnce());
  });
});
