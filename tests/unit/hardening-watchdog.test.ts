// Issue 5, faults: a dead worker never answers a comlink call, so the UI's watchdog must notice and say so.
import { expose, wrap, type Remote } from 'comlink';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerService } from '../../workers/api';
import { createTestLedgerService } from '../support/test-ledger';
import type { LedgerRemote } from '../../src/ledger/ledger-context';
import { LEDGER_UNAVAILABLE, livenessProbe, watchLedger } from '../../src/ledger/ledger-watchdog';
import { SARAH, errorOf, signInAs, uploadOf } from '../support/ledger-fixtures';

const FAST = { probeAfterMs: 50, probeTimeoutMs: 300 };
const ports: { close(): void }[] = [];
const threads: Worker[] = [];

afterEach(async () => {
  while (ports.length > 0) ports.pop()?.close();
  await Promise.all(threads.splice(0).map((thread) => thread.terminate()));
});

// The service exposed over a real MessageChannel; `die` closes the worker's side, as a closed or crashed worker would.
function channelLedger(deps: Parameters<typeof createTestLedgerService>[0] = {}) {
  const service = createTestLedgerService(deps);
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  expose(service, port1 as unknown as Parameters<typeof expose>[1]);
  const remote = wrap<LedgerService>(port2 as unknown as Parameters<typeof wrap>[0]) as LedgerRemote;
  return { service, remote, die: () => port1.close() };
}

interface BusyWorker {
  signIn: () => void;
  crunch: (probes: number, sliceIterations: number, maxSlices: number) => Promise<number>;
  hang: (maxSlices: number) => number;
}

// A real thread that computes (tests/support/busy-worker.mjs) behind the watchdog; it counts the probes it answered.
async function busyWorker() {
  const flags = new Int32Array(new SharedArrayBuffer(8)); // [probes answered, released]
  const { port1, port2 } = new MessageChannel();
  ports.push(port1);
  const thread = new Worker(new URL('../support/busy-worker.mjs', import.meta.url), {
    workerData: { flags: flags.buffer, port: port2 },
    transferList: [port2],
  });
  threads.push(thread);
  const remote = wrap<BusyWorker>(port1 as unknown as Parameters<typeof wrap>[0]);
  await remote.signIn(); // started: a slow start is not what these tests are about
  const ledger = remote as unknown as LedgerRemote;
  const probe = () => livenessProbe(ledger).finally(() => Atomics.add(flags, 0, 1));
  const watched = watchLedger(ledger, { ...FAST, probe });
  return {
    watched,
    busy: watched.service as unknown as Remote<BusyWorker>,
    probesAnswered: () => Atomics.load(flags, 0),
    release: () => Atomics.store(flags, 1, 1),
  };
}

describe('the ledger watchdog', () => {
  it('passes calls and their answers through, and errors by name and message', async () => {
    const { service, remote } = channelLedger();
    const watched = watchLedger(remote, { ...FAST, probe: () => livenessProbe(remote) });
    await signInAs(service, SARAH);
    expect((await watched.service.chainStatus()).height).toBe(1);
    expect(await errorOf(watched.service.upload(uploadOf('   ')))).toEqual({
      name: 'ValidationError',
      message: 'Enter a title.',
    });
    expect(watched.failure()).toBeNull();
  });

  it('does not give up on a worker that computes for many probe timeouts but answers between its slices', async () => {
    const { busy, watched, probesAnswered } = await busyWorker();
    // ends once the watchdog has asked 10 times, so it lasts at least 10 × 50 ms: longer than the 300 ms timeout
    const slices = await busy.crunch(10, 2_000_000, 100_000);
    expect(probesAnswered()).toBeGreaterThanOrEqual(10);
    expect(slices).toBeLessThan(100_000); // ended by the probes, not by the cap
    expect(watched.failure()).toBeNull();
  });

  it('declares dead a worker stuck in one synchronous call, and rejects that call', async () => {
    const { busy, watched, probesAnswered, release } = await busyWorker();
    const told: string[] = [];
    watched.onFailure((error) => told.push(error.message));
    const error = await errorOf(busy.hang(1e9)); // the cap is only a backstop: the test releases it
    release();
    expect(error).toEqual({ name: LEDGER_UNAVAILABLE, message: 'The records service stopped answering.' });
    expect(probesAnswered()).toBe(0);
    expect(told).toEqual(['The records service stopped answering.']);
  });

  it('rejects a call the dead worker will never answer, tells its listeners once, and refuses later calls at once', async () => {
    const { service, remote, die } = channelLedger();
    const watched = watchLedger(remote, { ...FAST, probe: () => livenessProbe(remote) });
    await signInAs(service, SARAH);
    const told: string[] = [];
    watched.onFailure((error) => told.push(error.name));
    die();
    const error = await errorOf(watched.service.chainStatus());
    expect(error.name).toBe(LEDGER_UNAVAILABLE);
    expect(error.message).toBe('The records service stopped answering.');
    expect(told).toEqual([LEDGER_UNAVAILABLE]);
    // refused at once: already rejected after a microtask, with no probe and no timer
    let refused = '';
    watched.service.patientOverview().catch((later: Error) => (refused = later.name));
    await Promise.resolve();
    await Promise.resolve();
    expect(refused).toBe(LEDGER_UNAVAILABLE);
    expect(told).toHaveLength(1);
  });

  it('rejects every call in flight when the worker reports a fatal error', async () => {
    const { service, remote } = channelLedger({ uploadDelayMs: 5000 });
    const watched = watchLedger(remote, { probeAfterMs: 60_000, probeTimeoutMs: 60_000, probe: () => livenessProbe(remote) });
    await signInAs(service, SARAH);
    const inFlight = errorOf(watched.service.upload(uploadOf('Never finished')));
    watched.fail('The records service failed: boom');
    expect(await inFlight).toEqual({ name: LEDGER_UNAVAILABLE, message: 'The records service failed: boom' });
    expect(watched.failure()?.message).toBe('The records service failed: boom');
  });

  it('never looks like a promise, so awaiting the service itself sends nothing to the worker', async () => {
    const { remote } = channelLedger();
    const watched = watchLedger(remote, { ...FAST, probe: () => livenessProbe(remote) });
    expect((watched.service as unknown as { then?: unknown }).then).toBeUndefined();
  });
});
