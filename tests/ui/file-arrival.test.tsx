// A file another device wrote shows how far it has come while its bytes are on their way, cannot be opened or
// downloaded until then, and opens once it has landed, without a reload (the worker's side: tests/unit/file-arrival.test.ts).
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeListener, FileArrival, LedgerService } from '../../workers/api';
import { arrivalWords } from '../../src/components/file-arrival';
import { captureBlobs, seedRecords } from './record-seeds';
import { openLedger, renderApp, withOverrides } from './render-app';

const MB = 1024 * 1024;
const ARRIVING = 'Arriving from another device: 40% (4.0 of 10.0 MB)';

let capture: ReturnType<typeof captureBlobs> | null = null;
afterEach(() => {
  capture?.restore();
  capture = null;
});

// Sarah's records page over a worker that lists scan.pdf as arriving while `arrival` is set; `land` clears it and
// tells the screens, as the worker does when the bytes are stored.
async function recordsWithArrivingScan() {
  const ledger = openLedger();
  await seedRecords(ledger.service, 'patient-1', [
    { title: 'Scan', files: [{ name: 'scan.pdf', type: 'application/pdf', text: '%PDF-1.4 ultrasound' }] },
  ]);
  const { proxy } = ledger;
  let arrival: FileArrival | undefined = { receivedBytes: 4 * MB, totalBytes: 10 * MB };
  const listeners: ChangeListener[] = [];
  const listRecords: LedgerService['listRecords'] = async (...args) => {
    const page = await proxy.listRecords(...args);
    const records = page.records.map((record) => ({
      ...record,
      documents: record.documents.map((document) => (arrival ? { ...document, arriving: { ...arrival } } : document)),
    }));
    return { ...page, records };
  };
  const onChange = async (listener: ChangeListener) => {
    listeners.push(listener);
    return proxy.onChange(listener);
  };
  const view = renderApp('/patient/records', {
    ledger,
    signedInAs: 'patient-1',
    proxy: withOverrides(proxy, { listRecords, onChange }),
  });
  const section = await screen.findByRole('region', { name: 'Your Records' });
  await within(section).findByText('scan.pdf');
  const land = () => {
    arrival = undefined;
    for (const listener of listeners) listener({ revision: 0, kinds: ['records'] });
  };
  return { ...view, section, land };
}

describe('a file on its way from another device', () => {
  it('shows how far it came in words and a progress bar, and its Open and Download are disabled saying why', async () => {
    const { section } = await recordsWithArrivingScan();
    const bar = await within(section).findByRole('progressbar', { name: ARRIVING });
    expect(bar).toHaveAttribute('value', String(4 * MB));
    expect(bar).toHaveAttribute('max', String(10 * MB));
    for (const name of ['Open scan.pdf', 'Download scan.pdf']) {
      const button = within(section).getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(ARRIVING);
    }
  });

  it('becomes openable when it lands, without a reload', async () => {
    capture = captureBlobs();
    const { section, user, land } = await recordsWithArrivingScan();
    await within(section).findByRole('progressbar', { name: ARRIVING });
    land();
    const open = within(section).getByRole('button', { name: 'Open scan.pdf' });
    await waitFor(() => expect(open).toBeEnabled());
    expect(within(section).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(section).queryByText(/Arriving from another device/)).not.toBeInTheDocument();
    await user.click(open);
    expect(await screen.findByRole('dialog', { name: 'scan.pdf' })).toBeInTheDocument();
    expect(await capture.text(0)).toBe('%PDF-1.4 ultrasound');
  });

  it('says 0% before any of it came, in the unit of its size', () => {
    expect(arrivalWords({ receivedBytes: 0, totalBytes: 454 })).toBe('Arriving from another device: 0% (0 of 454 B)');
    expect(arrivalWords({ receivedBytes: 0, totalBytes: 300 * 1024 })).toBe('Arriving from another device: 0% (0.0 of 300.0 KB)');
    expect(arrivalWords({ receivedBytes: 0, totalBytes: 6 * MB + 28 })).toBe('Arriving from another device: 0% (0.0 of 6.0 MB)');
  });
});
