import 'fake-indexeddb/auto';
import { expose, proxy, releaseProxy, transfer, wrap, type Remote } from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerService, MiningProgress } from '../../workers/api';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { USERS } from '../../workers/core/directory';
import { PBKDF2_ITERATIONS, type StoredKeys } from '../../workers/core/signatures';
import { KEYS_KEY } from '../../workers/storage/ledger-storage';
import { createTestLedgerService } from '../support/test-ledger';
import { connectLedger, type ConnectedLedger } from '../support/ledger-over-channel';
import { CARTER, MICHAEL, SARAH, fileInput, signInAs, textOf, uploadOf } from '../support/ledger-fixtures';

type Endpoint = Parameters<typeof wrap>[0];

let connected: ConnectedLedger | null = null;

function connect(): Remote<LedgerService> {
  connected = connectLedger();
  return connected.proxy;
}

afterEach(() => {
  connected?.close();
  connected = null;
});

// What crossed the channel keeps only name and message (docs/architecture.md, "The worker boundary"): read them, never instanceof.
async function rejectionOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected a rejection');
}

describe('the ledger over a MessageChannel', () => {
  it("takes file bytes by transfer: the sender's ArrayBuffer is detached and the worker stored them", async () => {
    const ledger = connect();
    await signInAs(ledger, SARAH);
    const file = fileInput('ecg.pdf', 'ECG trace');
    const request = uploadOf('ECG', [file]);
    const { record } = await ledger.upload(transfer(request, [file.bytes]));
    expect(file.bytes.byteLength).toBe(0);
    expect(record.documents[0]).toMatchObject({ fileName: 'ecg.pdf', fileSize: 9 });
    const content = await ledger.readDocument(record.documentIds[0]);
    expect(textOf(content.bytes)).toBe('ECG trace');
    expect(content.document).not.toHaveProperty('encryptionKey');
  });

  it('sends the decrypted bytes back by transfer, not by copy', async () => {
    const service = createTestLedgerService();
    await signInAs(service, SARAH);
    const { record } = await service.upload(uploadOf('ECG', [fileInput('ecg.pdf', 'ECG trace')]));
    const { port1, port2 } = new MessageChannel();
    const transferred: unknown[] = [];
    const post = port1.postMessage.bind(port1);
    port1.postMessage = ((message: unknown, transferList?: readonly unknown[]) => {
      transferred.push(...(transferList ?? []));
      post(message, transferList as never);
    }) as typeof port1.postMessage;
    expose(service, port1 as unknown as Endpoint);
    const ledger = wrap<LedgerService>(port2 as unknown as Endpoint);
    try {
      const content = await ledger.readDocument(record.documentIds[0]);
      expect(textOf(content.bytes)).toBe('ECG trace');
      expect(transferred).toHaveLength(1);
      expect(transferred[0]).toBeInstanceOf(ArrayBuffer);
      expect((transferred[0] as ArrayBuffer).byteLength).toBe(0); // moved to the other side
    } finally {
      ledger[releaseProxy]();
      port1.close();
    }
  });

  it('delivers an access-denied error with its exact name and message', async () => {
    const ledger = connect();
    await signInAs(ledger, MICHAEL);
    expect(await rejectionOf(ledger.listRecords(SARAH.id))).toEqual({
      name: 'AccessDeniedError',
      message: 'Access denied: Insufficient permissions',
    });
  });

  it('delivers the deletion error and the sign-in errors word for word', async () => {
    const ledger = connect();
    await signInAs(ledger, SARAH);
    const { record } = await ledger.upload(uploadOf('ECG'));
    await signInAs(ledger, CARTER);
    expect(await rejectionOf(ledger.deleteDocument(record.documentIds[0]))).toEqual({
      name: 'AccessDeniedError',
      message: 'Access denied: Only patients can delete their own documents',
    });
    expect(await rejectionOf(ledger.signIn(SARAH.email, DEMO_PASSWORD, 'doctor'))).toEqual({
      name: 'LoginError',
      message: 'Please select the correct user type. This account is registered as a patient.',
    });
  });

  it('calls a progress callback passed with Comlink.proxy while mining', async () => {
    const ledger = connect();
    await signInAs(ledger, SARAH);
    const reports: MiningProgress[] = [];
    const result = await ledger.mineSandbox(
      'lab-1',
      2,
      3,
      proxy((progress: MiningProgress) => void reports.push(progress)),
    );
    expect(result).toMatchObject({ jobId: 'lab-1', blocksMined: 3, cancelled: false });
    await expect.poll(() => reports.at(-1)?.blocksMined).toBe(3);
    expect(reports.every((p) => p.jobId === 'lab-1' && p.blocksTotal === 3)).toBe(true);
  });

  it('cancels a running job by id through the same proxy', async () => {
    const ledger = connect();
    await signInAs(ledger, SARAH);
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const mining = ledger.mineSandbox(
      'lab-2',
      6,
      3,
      proxy(() => started()),
    );
    await running;
    expect(await ledger.cancelJob('lab-2')).toBe(true);
    // Three blocks at 6 zero digits take ~25 s (16.7M hashes each at ~2 MH/s), but a lucky nonce may land one before the cancel.
    const result = await mining;
    expect(result).toMatchObject({ jobId: 'lab-2', blocksTotal: 3, cancelled: true });
    expect(result.blocksMined).toBeLessThan(3);
  });

  it('calls a change listener passed with Comlink.proxy after an upload', async () => {
    const ledger = connect();
    await signInAs(ledger, SARAH);
    let changes = 0;
    await ledger.onChange(proxy(() => void changes++));
    await ledger.upload(uploadOf('ECG'));
    await expect.poll(() => changes).toBe(1);
  });
});

describe('the worker entry', () => {
  it('exposes `ledger` as vite-plugin-comlink does (the module namespace), backed by IndexedDB', async () => {
    const api = await import('../../workers/ledger.worker');
    const { port1, port2 } = new MessageChannel();
    expose(api, port1 as unknown as Endpoint); // what the plugin's generated worker does with `import * as api`
    const remote = wrap<typeof api>(port2 as unknown as Endpoint);
    try {
      const user = await remote.ledger.signIn(SARAH.email, DEMO_PASSWORD, 'patient');
      expect(user.id).toBe(SARAH.id);
      expect(await remote.ledger.chainStatus()).toMatchObject({ height: 1, valid: true, readOnly: false });
      const { createIndexedDbStorage } = await import('../../workers/storage/indexeddb-storage');
      const reopened = createTestLedgerService({ storage: createIndexedDbStorage() });
      await signInAs(reopened, SARAH);
      expect((await reopened.chainStatus()).height).toBe(1); // the genesis was stored in the 'medledger' database
      // the worker wires the real key derivation: every user's key is wrapped with at least 600,000 iterations
      const keys = (await createIndexedDbStorage().readMeta(KEYS_KEY)) as StoredKeys;
      const iterations = Object.values(keys.users).map((key) => key.iterations);
      expect(iterations).toHaveLength(USERS.length);
      for (const count of iterations) expect(count).toBeGreaterThanOrEqual(600_000);
      expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    } finally {
      remote[releaseProxy]();
      port1.close();
    }
  });
});
