import 'fake-indexeddb/auto';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LedgerFailure } from '../../src/app/ledger-failure';
import { LEDGER_DB_NAME } from '../../workers/core/constants';

function databaseNames(): Promise<string[]> {
  return indexedDB.databases().then((all) => all.map((database) => database.name ?? ''));
}

function createLedgerDatabase(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(LEDGER_DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('meta');
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

describe('The records service stopped', () => {
  it('offers Reset local data, which asks first, then deletes the stored ledger and reloads', async () => {
    await createLedgerDatabase();
    localStorage.setItem('currentUser', JSON.stringify({ id: 'patient-1' }));
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    const user = userEvent.setup();
    render(<LedgerFailure error={new Error('The records service stopped answering.')} restart={() => undefined} />);

    await user.click(screen.getByRole('button', { name: 'Reset local data' }));
    expect(await databaseNames()).toContain(LEDGER_DB_NAME); // nothing deleted before the confirmation
    await user.click(screen.getByRole('button', { name: 'Delete the local data and start over' }));
    await vi.waitFor(() => expect(reload).toHaveBeenCalled());
    expect(await databaseNames()).not.toContain(LEDGER_DB_NAME);
    expect(localStorage.getItem('currentUser')).toBeNull();
  });
});
