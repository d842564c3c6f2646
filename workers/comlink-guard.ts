// The worker answers only its API. Comlink's expose() serves GET, SET, CONSTRUCT, ENDPOINT and APPLY on any
// property path, so `ledger.constructor.constructor('...')()` would run code in the worker and a SET on
// `__proto__` would pollute every object. A guard listens before comlink on each exposed endpoint and lets
// through only calls of the service's own methods (and the release of a proxy); anything else is answered
// with an error and changes nothing.
import { expose, transferHandlers, type Endpoint } from 'comlink';
import { ledgerError } from './core/errors';

export const REFUSED_MESSAGE = 'The records service answers only calls of its own methods.';

function messagePath(message: unknown): { type: unknown; steps: string[] } | null {
  if (message === null || typeof message !== 'object') return null;
  const { type, path = [] } = message as { type?: unknown; path?: unknown }; // comlink reads a missing path as []
  if (!Array.isArray(path) || !path.every((step) => typeof step === 'string')) return null;
  return { type, steps: path };
}

// An APPLY of one of `methods` under `root` (e.g. ['ledger', 'signIn']), or the release of the whole proxy.
export function isServiceCall(message: unknown, root: readonly string[], methods: ReadonlySet<string>): boolean {
  const parsed = messagePath(message);
  if (!parsed) return false;
  const { type, steps } = parsed;
  if (type === 'RELEASE') return steps.length === 0;
  return (
    type === 'APPLY' &&
    steps.length === root.length + 1 &&
    root.every((step, i) => steps[i] === step) &&
    methods.has(steps[root.length])
  );
}

// A call of the exposed function itself, or its release.
export function isDirectCall(message: unknown): boolean {
  const parsed = messagePath(message);
  return !!parsed && parsed.steps.length === 0 && (parsed.type === 'APPLY' || parsed.type === 'RELEASE');
}

// Comlink's own wire format for a thrown error, so the caller's promise rejects with it.
function refusal(id: unknown) {
  const { name, message } = ledgerError('AccessDeniedError', REFUSED_MESSAGE);
  return { id, type: 'HANDLER', name: 'throw', value: { isError: true, value: { name, message } } };
}

// Must run before comlink's expose() on the same endpoint: listeners run in the order they were added.
export function guardEndpoint(endpoint: Endpoint, allowed: (message: unknown) => boolean): void {
  endpoint.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as unknown;
    if (!data || allowed(data)) return; // comlink itself ignores empty messages
    event.stopImmediatePropagation();
    const id = (data as { id?: unknown }).id;
    if (id !== undefined) endpoint.postMessage(refusal(id));
  });
}

// Proxies the worker hands out (the unsubscribe of onChange) are callable and releasable, nothing more.
export function guardReturnedProxies(): void {
  const original = transferHandlers.get('proxy');
  if (!original) return;
  transferHandlers.set('proxy', {
    canHandle: original.canHandle,
    serialize(value: unknown) {
      const { port1, port2 } = new MessageChannel();
      guardEndpoint(port1, (message) => typeof value === 'function' && isDirectCall(message));
      expose(value, port1);
      return [port2, [port2]];
    },
    deserialize: original.deserialize,
  });
}
