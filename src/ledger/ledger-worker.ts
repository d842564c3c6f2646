import type { LedgerRemote } from './ledger-context';

let ledger: LedgerRemote | undefined;

// The one place the worker starts, on first use (never at import), so tests inject their own proxy.
export function openWorkerLedger(): LedgerRemote {
  if (!ledger) {
    // literal form required: vite-plugin-comlink rewrites only this expression
    const worker = new ComlinkWorker<typeof import('../../workers/ledger.worker')>(
      new URL('../../workers/ledger.worker', import.meta.url),
      { type: 'module' },
    );
    ledger = worker.ledger as unknown as LedgerRemote;
  }
  return ledger;
}
