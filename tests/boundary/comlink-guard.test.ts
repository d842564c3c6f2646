// The worker answers only its API: over a real MessageChannel, guarded as the worker guards its scope, nothing
// but calls of LedgerService's own methods reaches the service, and a refused message changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEndpoint, proxy } from 'comlink';
import { REFUSED_MESSAGE, isServiceCall } from '../../workers/comlink-guard';
import { connectLedger, type ConnectedLedger } from '../support/ledger-over-channel';
import { SARAH, MICHAEL, WILSON, signInAs, uploadOf } from '../support/ledger-fixtures';

const REFUSED = { name: 'AccessDeniedError', message: REFUSED_MESSAGE };
let open: ConnectedLedger[] = [];

afterEach(() => {
  open.forEach((ledger) => ledger.close());
  open = [];
});

async function connected() {
  const ledger = connectLedger();
  open.push(ledger);
  await signInAs(ledger.proxy, SARAH);
  await ledger.proxy.upload(uploadOf('Sarah private scan'));
  return ledger;
}

async function refusal(promise: unknown): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected the worker to refuse');
}

// What anyone could see or change: Sarah's records and chain, Michael's records as Wilson, the shared prototypes.
async function observable(ledger: ConnectedLedger) {
  const { service } = ledger;
  await signInAs(service, SARAH);
  const sarah = { status: await service.chainStatus(), records: (await service.listRecords(SARAH.id)).records };
  await signInAs(service, WILSON);
  const wilson = { records: (await service.listRecords(MICHAEL.id)).records };
  await signInAs(service, SARAH);
  const prototypes = [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort());
  return { sarah, wilson, prototypes, includes: Array.prototype.includes };
}

describe('the comlink surface', () => {
  it('refuses constructor.constructor, a GET of a method, a SET on __proto__, new, and a second endpoint', async () => {
    const ledger = await connected();
    const before = await observable(ledger);
    const remote = ledger.proxy as unknown as Record<string, Record<string, (code: string) => () => unknown>>;
    expect(await refusal(remote.constructor.constructor('return 1'))).toEqual(REFUSED);
    expect(await refusal((remote.signIn as unknown as { name: Promise<string> }).name)).toEqual(REFUSED);
    // comlink's proxy sends a SET without waiting for its answer: send it raw to see the answer
    expect(
      (await raw(ledger, { type: 'SET', path: ['__proto__', 'polluted'], value: { type: 'RAW', value: 'yes' } })).value,
    ).toEqual({
      isError: true,
      value: REFUSED,
    });
    expect(await refusal(new (ledger.proxy.signIn as unknown as new () => Promise<unknown>)())).toEqual(REFUSED);
    expect(await refusal((ledger.proxy as unknown as { [createEndpoint]: () => Promise<unknown> })[createEndpoint]())).toEqual(
      REFUSED,
    );
    expect(await ledger.proxy.chainStatus()).toMatchObject({ valid: true, height: 2 });
    expect(await observable(ledger)).toEqual(before);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('lets the unsubscribe the worker returns be called, and nothing else of it', async () => {
    const ledger = await connected();
    const unsubscribe = await ledger.proxy.onChange(proxy(() => undefined));
    const remote = unsubscribe as unknown as Record<string, Record<string, (code: string) => () => unknown>>;
    expect(await refusal(remote.constructor.constructor('return 1'))).toEqual(REFUSED);
    await expect(unsubscribe()).resolves.toBeUndefined();
  });
});

let rawId = 0;

// Sends one comlink message as it is and resolves with the worker's answer to it.
function raw(ledger: ConnectedLedger, message: Record<string, unknown>): Promise<Record<string, unknown>> {
  const sent = { ...message, id: `raw-${++rawId}` };
  const reply = new Promise<Record<string, unknown>>((resolve) => {
    const listen = (data: Record<string, unknown>) => {
      if (data?.id !== sent.id) return;
      ledger.port.off('message', listen);
      resolve(data);
    };
    ledger.port.on('message', listen);
  });
  ledger.port.postMessage(sent);
  return reply;
}

const PATH_STEPS = [
  'ledger',
  'signIn',
  'listRecords',
  'resetDemoData',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'call',
  'apply',
  'bind',
  'hasOwnProperty',
  'includes',
  'then',
  '',
];
const messageArb = fc.record({
  type: fc.constantFrom('GET', 'SET', 'APPLY', 'CONSTRUCT', 'ENDPOINT', 'RELEASE', 'OTHER', 7, null),
  path: fc.oneof(
    fc.array(fc.oneof(fc.constantFrom(...PATH_STEPS), fc.string({ maxLength: 6 })), { maxLength: 4 }),
    fc.constant(undefined),
    fc.constant('signIn'),
  ),
  value: fc.constant({ type: 'RAW', value: 'polluted' }),
  argumentList: fc.constant([{ type: 'RAW', value: 'return globalThis' }]),
});

describe('any comlink message that is not a call of a known method', () => {
  it('is answered with the refusal and leaves everything as it was', async () => {
    const ledger = await connected();
    const methods = new Set(Object.keys(ledger.service));
    const before = await observable(ledger);
    await fc.assert(
      fc.asyncProperty(messageArb, async (message) => {
        fc.pre(!isServiceCall(message, [], methods));
        expect(await raw(ledger, message)).toMatchObject({
          type: 'HANDLER',
          name: 'throw',
          value: { isError: true, value: REFUSED },
        });
      }),
      { numRuns: 300 },
    );
    expect(await observable(ledger)).toEqual(before);
  });
});
