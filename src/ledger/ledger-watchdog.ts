import type { LedgerRemote } from './ledger-context';

// A worker that died (closed, crashed, failed to start) never answers a comlink call: without this
// the screens would wait forever. The UI branches on this name, like the worker's own error names.
export const LEDGER_UNAVAILABLE = 'LedgerUnavailableError';

export interface WatchdogOptions {
  probe: () => Promise<unknown>; // answered by any live worker, changes nothing
  probeAfterMs?: number; // a call pending this long makes the watchdog ask whether the worker is alive
  probeTimeoutMs?: number; // no answer to that question within this long: the worker is dead
}

export interface WatchedLedger {
  service: LedgerRemote; // every call goes through the watchdog
  failure: () => Error | null;
  onFailure: (listener: (error: Error) => void) => () => void;
  fail: (message: string) => void; // the worker reported a fatal error (its 'error' event)
}

// Long calls are fine (a 1,000-block mining job, a 500 MB upload): the worker still answers the probe
// between its macrotasks. Only a worker that stays silent for probeTimeoutMs is declared dead.
const PROBE_AFTER_MS = 2000;
const PROBE_TIMEOUT_MS = 8000;

export function unavailableError(message: string): Error {
  const error = new Error(message);
  error.name = LEDGER_UNAVAILABLE;
  return error;
}

// A comlink GET, which the worker refuses at once (it answers only calls of its methods): any answer means alive.
export function livenessProbe(remote: LedgerRemote): Promise<unknown> {
  return Promise.resolve((remote as unknown as { signIn: { name: PromiseLike<string> } }).signIn.name);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function watchLedger(remote: LedgerRemote, options: WatchdogOptions): WatchedLedger {
  const probeAfterMs = options.probeAfterMs ?? PROBE_AFTER_MS;
  const probeTimeoutMs = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
  const pending = new Set<(error: Error) => void>(); // the reject of every call in flight
  const listeners = new Set<(error: Error) => void>();
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  let failure: Error | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function fail(message: string): void {
    if (failure) return;
    failure = unavailableError(message);
    clearTimeout(timer);
    for (const reject of pending) reject(failure);
    pending.clear();
    for (const listener of listeners) listener(failure);
  }

  function watch(): void {
    if (timer !== undefined || failure || pending.size === 0) return;
    timer = setTimeout(() => {
      const answered = options.probe().then(
        () => true,
        () => true, // an error is an answer too
      );
      void Promise.race([answered, delay(probeTimeoutMs).then(() => false)]).then((alive) => {
        timer = undefined;
        if (!alive) fail('The records service stopped answering.');
        else watch(); // still calls in flight: ask again later
      });
    }, probeAfterMs);
  }

  function track(call: () => Promise<unknown>): Promise<unknown> {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      pending.add(reject);
      watch();
      const settle = () => pending.delete(reject);
      call().then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  }

  const service = new Proxy(remote, {
    get(target, key, receiver) {
      if (key === 'then') return undefined; // not a thenable: awaiting the service sends nothing
      const member: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return member;
      let method = methods.get(key);
      if (!method) {
        method = (...args: unknown[]) => track(() => (member as (...a: unknown[]) => Promise<unknown>)(...args));
        methods.set(key, method);
      }
      return method;
    },
  });

  return {
    service,
    failure: () => failure,
    onFailure(listener) {
      if (failure) listener(failure); // it failed before anyone listened: say so at once
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    fail,
  };
}
