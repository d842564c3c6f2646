import { act, render, screen, waitFor, within } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeKind, ChangeListener, LedgerChange } from '../../workers/api';
import type { LedgerRemote } from '../../src/ledger/ledger-context';
import { LedgerProvider } from '../../src/ledger/ledger-provider';
import { useLedger, useLedgerVersion } from '../../src/ledger/use-ledger';
import { useLedgerQuery } from '../../src/ledger/use-ledger-query';
import { LEDGER_UNAVAILABLE, unavailableError } from '../../src/ledger/ledger-watchdog';
import { openLedger, renderApp, withOverrides } from './render-app';
import { signInById } from '../support/ledger-fixtures';

const PDF = { name: 'note.pdf', type: 'application/pdf' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Chain status', () => {
  it('asks the worker for the chain status once per change on the patient dashboard, however many screens show it', async () => {
    const ledger = openLedger();
    let calls = 0;
    const proxy = withOverrides(ledger.proxy, {
      chainStatus: () => {
        calls += 1;
        return ledger.proxy.chainStatus();
      },
    });
    renderApp('/patient/dashboard', { ledger, proxy, signedInAs: 'patient-1' });
    expect(await screen.findByText(/Blocks in the records chain:/)).toHaveTextContent('Blocks in the records chain: 1');
    const network = screen.getByRole('region', { name: 'Network status' });
    const blocks = () => within(network).getByText('Blocks').nextElementSibling;
    await waitFor(() => expect(blocks()).toHaveTextContent(/^1$/));
    expect(calls).toBe(1); // the dashboard, the side menu's network status and the chain banner share it
    calls = 0;

    await signInById(ledger.service, 'patient-1');
    await ledger.service.upload({
      title: 'Arrived later',
      type: 'prescription',
      files: [{ ...PDF, bytes: new TextEncoder().encode('%PDF-1.4 later').buffer as ArrayBuffer }],
    });
    await waitFor(() =>
      expect(screen.getByText(/Blocks in the records chain:/)).toHaveTextContent('Blocks in the records chain: 2'),
    );
    expect(blocks()).toHaveTextContent(/^2$/);
    await new Promise((resolve) => setTimeout(resolve, 400)); // past the change throttle: a late refetch would have run
    expect(calls).toBe(1);
  });
});

// A service that only counts: the test plays the worker's change notifications itself.
function fakeLedger(unsubscribe: () => Promise<void> = () => Promise.resolve()) {
  let notify: ChangeListener | undefined;
  const counts = { records: 0, history: 0 };
  const onChange = vi.fn((listener: ChangeListener) => {
    notify = listener;
    return Promise.resolve(vi.fn(unsubscribe));
  });
  const service = { onChange } as unknown as LedgerRemote;
  return {
    service,
    onChange,
    counts,
    loadRecords: () => Promise.resolve(++counts.records),
    loadHistory: () => Promise.resolve(++counts.history),
    emit: (...kinds: ChangeKind[]) => act(() => notify?.({ revision: 1, kinds } satisfies LedgerChange)),
    unsubscribed: async () => (await onChange.mock.results[0].value) as ReturnType<typeof vi.fn>,
  };
}

function Loads({ label, load, kinds }: { label: string; load: () => Promise<number>; kinds: ChangeKind[] }) {
  const query = useLedgerQuery(load, kinds);
  return <p>{`${label}: ${query.data ?? 'loading'}`}</p>;
}

function renderScreens(ledger: ReturnType<typeof fakeLedger>) {
  return render(
    <LedgerProvider service={ledger.service}>
      <Loads label="records" load={ledger.loadRecords} kinds={['records']} />
      <Loads label="history" load={ledger.loadHistory} kinds={['grants', 'access']} />
    </LedgerProvider>,
  );
}

describe('Ledger changes', () => {
  it('refetches a screen that depends on records only when a change includes records', async () => {
    const ledger = fakeLedger();
    renderScreens(ledger);
    await screen.findByText('records: 1');
    await screen.findByText('history: 1');

    await ledger.emit('chain', 'access'); // an emergency read
    await screen.findByText('history: 2');
    expect(screen.getByText('records: 1')).toBeInTheDocument();
    expect(ledger.counts.records).toBe(1);

    await ledger.emit('chain', 'records'); // an upload, within the throttle: it waits, it is not lost
    await screen.findByText('records: 2');
    expect(ledger.counts.history).toBe(2);
  });

  it('refetches everything on a reset', async () => {
    const ledger = fakeLedger();
    renderScreens(ledger);
    await screen.findByText('records: 1');
    await ledger.emit('chain', 'reset');
    await screen.findByText('records: 2');
    await screen.findByText('history: 2');
  });

  it('merges the kinds of a burst of changes into one refetch per screen', async () => {
    const ledger = fakeLedger();
    renderScreens(ledger);
    await screen.findByText('records: 1');
    await screen.findByText('history: 1');
    await ledger.emit('chain', 'grants'); // refreshes at once and starts the throttle
    await screen.findByText('history: 2');
    await ledger.emit('chain', 'records');
    await ledger.emit('chain', 'access');
    await ledger.emit('chain', 'records');
    await screen.findByText('records: 2');
    await screen.findByText('history: 3');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ledger.counts).toEqual({ records: 2, history: 3 });
  });

  it('holds one worker subscription for every screen and ends it when the provider goes away', async () => {
    const ledger = fakeLedger();
    const view = renderScreens(ledger);
    await screen.findByText('records: 1');
    expect(ledger.onChange).toHaveBeenCalledTimes(1);
    const unsubscribe = await ledger.unsubscribed();
    expect(unsubscribe).not.toHaveBeenCalled();
    view.unmount();
    await waitFor(() => expect(unsubscribe).toHaveBeenCalledTimes(1));
  });

  it('ends the subscription quietly when the worker is already dead', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const ledger = fakeLedger(() => Promise.reject(unavailableError('The records service stopped answering.')));
    const view = renderScreens(ledger);
    await screen.findByText('records: 1');
    view.unmount();
    const unsubscribe = await ledger.unsubscribed();
    await waitFor(() => expect(unsubscribe).toHaveBeenCalledTimes(1));
    await expect(unsubscribe.mock.results[0].value).rejects.toHaveProperty('name', LEDGER_UNAVAILABLE);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(error).not.toHaveBeenCalled(); // and no unhandled rejection, which would fail the run
  });
});

describe('Renders on ledger changes', () => {
  it('re-renders no screen for signature progress it does not show, and a records screen once per records change', async () => {
    const ledger = fakeLedger();
    const renders = { service: 0, records: 0 };
    function ServiceOnly() {
      useLedger();
      useLayoutEffect(() => void (renders.service += 1)); // in the commit of every render: counted before its text shows
      return <p>service only</p>;
    }
    function Records() {
      const query = useLedgerQuery(ledger.loadRecords, ['records']);
      useLayoutEffect(() => void (renders.records += 1));
      return <p>{`records: ${query.data ?? 'loading'}`}</p>;
    }
    // shows that each notice has reached the screens before the counts are read
    function SignatureProgress() {
      return <p>{`signatures: ${useLedgerVersion(['signatures'])}`}</p>;
    }
    render(
      <LedgerProvider service={ledger.service}>
        <ServiceOnly />
        <Records />
        <SignatureProgress />
      </LedgerProvider>,
    );
    await screen.findByText('records: 1');
    const before = { ...renders };

    for (const seen of [1, 2, 3]) {
      await ledger.emit('signatures');
      await screen.findByText(`signatures: ${seen}`);
    }
    expect(renders).toEqual(before);

    await ledger.emit('chain', 'records');
    await screen.findByText('records: 2');
    expect(ledger.counts.records).toBe(2); // one refetch
    expect(renders).toEqual({ service: before.service, records: before.records + 1 }); // once, with the new data
  });
});
