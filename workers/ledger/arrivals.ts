// Files other devices wrote that are still on their way here (docs/decisions/one-ledger-across-devices.md): the
// store knows which (Snapshot.awaiting), the sync module reports how far their bytes came, the views show both.
import type { FileArrival } from '../api';
import { storedSize } from '../core/documents';
import type { ArrivalOf } from './views';

export const PROGRESS_NOTICE_MS = 250; // the screens hear of progress at most this often

export interface Arrivals {
  of: ArrivalOf;
  progress(documentId: string, receivedBytes: number, totalBytes: number): void;
}

// `awaiting`: the store's current set; `notify`: tells the screens (records changed); `later`: a timer (setTimeout).
export function createArrivals(
  awaiting: () => ReadonlySet<string>,
  notify: () => void,
  now: () => number,
  later: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms),
): Arrivals {
  const received = new Map<string, FileArrival>();
  let lastNotice = -Infinity;
  let noticeDue = false;

  // at once when the last notice is old enough, else once at the end of the interval
  function throttledNotify(): void {
    if (noticeDue) return;
    const wait = lastNotice + PROGRESS_NOTICE_MS - now();
    if (wait <= 0) {
      lastNotice = now();
      return notify();
    }
    noticeDue = true;
    later(() => {
      noticeDue = false;
      lastNotice = now();
      notify();
    }, wait);
  }

  return {
    of(document) {
      if (document.deletedAt || !awaiting().has(document.id)) {
        received.delete(document.id); // it landed (or went): nothing more to show
        return undefined;
      }
      const arrival = received.get(document.id) ?? { receivedBytes: 0, totalBytes: storedSize(document.fileSize) };
      // its bytes are here and only its key is awaited: opening it fetches the key under an emergency grant, or says why not
      if (arrival.receivedBytes >= arrival.totalBytes) return undefined;
      return { ...arrival };
    },
    progress(documentId, receivedBytes, totalBytes) {
      const before = received.get(documentId);
      if (before?.receivedBytes === receivedBytes && before.totalBytes === totalBytes) return;
      received.set(documentId, { receivedBytes: Math.min(receivedBytes, totalBytes), totalBytes });
      throttledNotify();
    },
  };
}
