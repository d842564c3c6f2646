// connectLedger(deps): the service exposed with comlink over a real MessageChannel, as the worker exposes it.
import { expose, releaseProxy, wrap, type Endpoint, type Remote } from 'comlink';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { LedgerService } from '../../workers/api';
import { guardEndpoint, guardReturnedProxies, isServiceCall } from '../../workers/comlink-guard';
import { createTestLedgerService } from './test-ledger';
import type { LedgerDeps } from '../../workers/ledger/deps';

export interface ConnectedLedger {
  service: LedgerService; // the in-process object, to arrange state directly
  proxy: Remote<LedgerService>; // what the UI holds: every call crosses the channel
  port: MessagePort; // the UI's end of the channel, for raw comlink messages
  close: () => void;
}

export function connectLedger(deps?: Partial<LedgerDeps>): ConnectedLedger {
  const service = createTestLedgerService(deps);
  const { port1, port2 } = new MessageChannel();
  // Node's MessagePort is an EventTarget-like port, enough for comlink's endpoint. Guarded as the worker is.
  const endpoint = port1 as unknown as Endpoint;
  const methods = new Set(Object.keys(service));
  guardEndpoint(endpoint, (message) => isServiceCall(message, [], methods));
  guardReturnedProxies();
  expose(service, endpoint);
  const proxy = wrap<LedgerService>(port2 as unknown as Parameters<typeof wrap>[0]);
  return {
    service,
    proxy,
    port: port2,
    close: () => {
      proxy[releaseProxy]();
      port1.close();
      port2.close();
    },
  };
}
