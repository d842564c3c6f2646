// Summary keys through the sync server (docs/decisions/nothing-medical-in-clear.md): it keeps wraps of the epochs a
// patient announced on its verified ledger, and releases the care network's wrap of an epoch to the doctor of an active
// grant of either level, against the doctor's read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import {
  CARE_NETWORK,
  summaryEpochId,
  summaryKeySubject,
  summaryWrapOf,
  unwrapSummaryKey,
  wrapId,
  wrapSummaryKey,
  type KeyWrap,
  type Recipient,
} from '../../workers/core/key-wraps';
import { unlockUserKeys } from '../../workers/core/signatures';
import type { LedgerDoc, ReleaseAnswer } from '../../workers/core/sync-protocol';
import { sealClinicalRecord } from '../../workers/core/sealed-fields';
import type { ClinicalRecord } from '../../workers/core/types';
import type { LedgerDeps } from '../../workers/ledger/deps';
import { createLedgerBackend } from '../../workers/service';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { storePort } from '../../workers/sync/store-port';
import { startSync } from '../../workers/sync/sync-client';
import type { SyncClient, SyncKeys } from '../../workers/sync/sync-ports';
import { MICHAEL, SARAH, WILSON, signInAs } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';
import { scanServerStorage } from '../e2e/support/server-storage-scan';
import { connectDevice, identityOf, type TestDevice } from './support/devices';
import { signProof } from '../../workers/core/sync-proof';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeSyncTransport } from './support/node-sync-transport';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

let server: ServerProcess;
let deps: LedgerDeps;
let backend: ReturnType<typeof createLedgerBackend>;
let client: SyncClient;
let raw: TestDevice; // a client that never signs in: it only asks for the ledger document by its URL
let ledger: () => LedgerDoc;
const extraWraps: KeyWrap[] = []; // summary-key wraps the patient's device sends beside its document wraps
const kept: { to: string; key: string }[] = []; // summary keys the test's key sharing stored, as workers/ledger/key-sharing.ts is to
const summaryKey = randomKeyHex();
let epochId = '';
const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG'; // a well-formed content id: the file's bytes never travel here

function randomKeyHex(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
}

async function encryptionKeyOf(userId: string): Promise<CryptoKey> {
  const stored = backend.store.storedKeys()!.users[userId];
  return (await unlockUserKeys(stored, DEMO_PASSWORD))?.encryptionKey as CryptoKey;
}

function recipient(id: string): Recipient {
  return { id, publicKey: backend.store.state().enrolment?.encryption?.[id] as string };
}

// A new summary key announced by the signed-in patient: the epoch id of the upload sealed under it, which announces it.
// The device does not keep the key (the test's own wraps stand for the ones its key sharing would make), nor the file.
async function announceEpoch(patientId: string, keyHex: string): Promise<string> {
  const epoch = await summaryEpochId(patientId, keyHex);
  const patient = patientId === MICHAEL.id ? MICHAEL : SARAH;
  await backend.store.write('The upload was not saved', async (_, at) => {
    const documentId = crypto.randomUUID();
    const upload: ClinicalRecord = {
      id: crypto.randomUUID(),
      type: 'test_report',
      patientId,
      doctorId: patient.doctorId ?? '',
      title: 'HIV test, positive',
      description: 'Viral load 12,400 copies/mL',
      timestamp: new Date(at).toISOString(),
      files: [{ documentId, name: 'viral-load.pdf', type: 'application/pdf', size: 48_213, cid: CID }],
    };
    const sealed = await sealClinicalRecord(
      upload,
      { patientId, epochId: epoch, key: keyHex },
      new Map([[documentId, randomKeyHex()]]),
    );
    return { records: [sealed], result: () => undefined };
  });
  return epoch;
}

// Every block of this device on the server: the client sends at once what was written here.
async function pushed(): Promise<void> {
  client.localChanged();
  const height = backend.store.current().blocks.length;
  await expect.poll(async () => (await server.info()).height).toBe(height);
}

async function release(body: Record<string, unknown>): Promise<{ status: number; answer: ReleaseAnswer }> {
  const answer = await fetch(`http://127.0.0.1:${server.port}/api/release`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${raw.session()}` },
    body: JSON.stringify(body),
  });
  return { status: answer.status, answer: (await answer.json()) as ReleaseAnswer };
}

// the server's care-network public key, read from its folder: devices are told it only once they proved who they are
const careNetworkKey = () =>
  (JSON.parse(readFileSync(join(server.dir, 'care-network-key.json'), 'utf8')) as { publicKey: string }).publicKey;

beforeAll(async () => {
  server = await startServer(newStorageDir());
  deps = testDeps({ storage: createMemoryStorage() });
  backend = createLedgerBackend(deps);
  await signInAs(backend.service, SARAH);
  epochId = await announceEpoch(SARAH.id, summaryKey);
  const careKey = careNetworkKey();
  const care = { id: CARE_NETWORK, publicKey: careKey };
  const unannounced = randomKeyHex();
  extraWraps.push(
    await wrapSummaryKey(SARAH.id, epochId, summaryKey, care, SARAH.id),
    await wrapSummaryKey(SARAH.id, epochId, summaryKey, recipient(SARAH.id), SARAH.id),
    await wrapSummaryKey(SARAH.id, epochId, summaryKey, { id: 'someone-else', publicKey: careKey }, SARAH.id),
    await wrapSummaryKey(SARAH.id, await summaryEpochId(SARAH.id, unannounced), unannounced, care, SARAH.id),
  );
  const keys: SyncKeys = {
    setCareNetworkKey: (publicKey) => backend.keySharing.setCareNetworkKey(publicKey),
    wrapsToSend: async () => [...(await backend.keySharing.wrapsToSend()), ...extraWraps],
    vouchedSubjects: () => backend.keySharing.vouchedSubjects(),
    // a summary-key wrap is kept when it opens with the signed-in user's key to the epoch it names
    async acceptWraps(wraps) {
      const user = backend.actor();
      let stored = 0;
      for (const wrap of wraps) {
        const named = summaryWrapOf(wrap);
        if (!named || !user || (wrap as KeyWrap).to !== user.id) continue;
        const key = await unwrapSummaryKey(wrap, await encryptionKeyOf(user.id), named);
        if (!key || (await summaryEpochId(named.patientId, key)) !== named.epochId) continue;
        kept.push({ to: user.id, key });
        stored++;
      }
      return stored + (await backend.keySharing.acceptWraps(wraps));
    },
  };
  client = await startSync({
    serverUrl: `ws://127.0.0.1:${server.port}`,
    deviceName: 'Sarah’s laptop',
    deviceId: `device-${crypto.randomUUID()}`,
    store: storePort(deps, backend.store, async () => undefined),
    keys,
    transport: nodeSyncTransport,
    prove: async (challenge, genesis, deviceId) => {
      const user = backend.actor();
      const key = user ? await identityOf(backend.store.storedKeys()!.users, user.id) : null;
      return key ? signProof(challenge, genesis, deviceId, key.userId, key.signingKey) : null;
    },
    now: () => Date.now(),
    changed: () => undefined,
  });
  // another device of the ledger, proven as Dr. Wilson: it reads the ledger document every device reads
  raw = await connectDevice(server.port, 'desk', backend.store.current().blocks.slice(0, 1), {
    as: await identityOf(backend.store.storedKeys()!.users, WILSON.id),
  });
  expect(await raw.join()).toMatchObject({ ok: true });
  const handle = await raw.ledger();
  ledger = () => handle.doc();
});

afterAll(async () => {
  await Promise.allSettled([client?.close(), raw?.close()]);
  await server?.kill();
});

describe('summary keys through the sync server', () => {
  it('relays the wraps of an epoch its patient announced and refuses one of an unannounced epoch or to no user', async () => {
    const [toCare, toSarah, toNoUser, ofUnannounced] = extraWraps;
    // (her device's key sharing may add its own wraps of the epoch, to her doctor, once it took hers back)
    await expect.poll(() => Object.keys(ledger().wraps ?? {})).toEqual(expect.arrayContaining([wrapId(toCare), wrapId(toSarah)]));
    await expect
      .poll(() => ledger().refused[`wrap:${wrapId(toNoUser)}`]?.reason)
      .toBe('summary-key wrap to no user of this ledger');
    await expect
      .poll(() => ledger().refused[`wrap:${wrapId(ofUnannounced)}`]?.reason)
      .toBe('summary-key wrap of an epoch its patient did not announce');
    expect(Object.keys(ledger().wraps ?? {})).not.toContain(wrapId(toNoUser));
    expect(Object.keys(ledger().wraps ?? {})).not.toContain(wrapId(ofUnannounced));
    // Sarah's own device took the wrap to her back from the ledger
    await expect.poll(() => kept).toContainEqual({ to: SARAH.id, key: summaryKey });
    expect(wrapId(toCare)).toBe(wrapId({ documentId: summaryKeySubject(SARAH.id, epochId), to: CARE_NETWORK }));
    // the refusal is logged as it is written into the document: read the log once it says so
    await expect.poll(() => server.lines.some((line) => line.includes('summary-key wrap to no user of this ledger'))).toBe(true);
    // nothing the server stored or logged holds the summary key in any encoding
    const scan = scanServerStorage(server.dir, [summaryKey, epochId]);
    expect(scan.documents).toBeGreaterThan(0);
    expect(scan.found.filter((finding) => finding.secret === summaryKey)).toEqual([]);
    expect(scan.found.some((finding) => finding.secret === epochId)).toBe(true); // the scan reads what the server holds
    expect(server.lines.some((line) => line.includes(summaryKey))).toBe(false);
  });

  it('releases an epoch of the granted patient to the doctor of a basic grant against their read, and not without it, for another patient, or once consent is off', async () => {
    await signInAs(backend.service, WILSON);
    const grant = await backend.service.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'Unconscious on arrival',
      durationMinutes: 30,
      accessLevel: 'basic',
    });
    await pushed();
    const genesis = backend.store.current().blocks[0].hash;
    expect(await release({ grantId: grant.id, epochId, readBlock: genesis })).toMatchObject({
      status: 200,
      answer: { ok: false, reason: `block ${genesis} is not a read under grant ${grant.id}` },
    });
    expect(await release({ grantId: grant.id, epochId, readBlock: 'not a hash' })).toMatchObject({
      status: 400,
      answer: { ok: false, reason: expect.stringMatching(/readBlock/) },
    });
    expect(await release({ grantId: grant.id, epochId: 'no epoch', readBlock: genesis })).toMatchObject({
      status: 400,
      answer: { ok: false, reason: expect.stringMatching(/epochId/) },
    });
    expect(await release({ grantId: grant.id, epochId, documentId: 'doc-1', readBlock: genesis })).toMatchObject({
      status: 400,
      answer: { ok: false, reason: 'the request names a document and an epoch' },
    });
    expect(server.lines.some((line) => line.includes('release request refused: epochId'))).toBe(true);

    // the doctor reads under the grant and asks at once: the server waits for the read block to arrive
    await backend.service.emergencyView(grant.id);
    const readBlock = backend.store.state().grants.get(grant.id)?.reads.at(-1)?.block as string;
    client.localChanged();
    expect(kept.some(({ to }) => to === WILSON.id)).toBe(false);
    expect(await client.releaseSummary({ grantId: grant.id, epochId, readBlock })).toBeNull();
    expect(kept).toContainEqual({ to: WILSON.id, key: summaryKey });
    const { answer } = await release({ grantId: grant.id, epochId, readBlock });
    expect(answer).toMatchObject({
      ok: true,
      wrap: { to: WILSON.id, from: CARE_NETWORK, documentId: summaryKeySubject(SARAH.id, epochId), cid: epochId },
    });
    const wrap = (answer as { wrap: KeyWrap }).wrap;
    expect(await unwrapSummaryKey(wrap, await encryptionKeyOf(WILSON.id))).toBe(summaryKey);
    expect(await unwrapSummaryKey(wrap, await encryptionKeyOf(SARAH.id))).toBeNull();
    expect(JSON.stringify(answer)).not.toContain(summaryKey);
    expect(server.lines.some((line) => line.includes(`released the summary key of epoch ${epochId} to ${WILSON.id}`))).toBe(true);

    // Michael's epoch, its care-network wrap held by the server, is not released under Sarah's grant
    await signInAs(backend.service, MICHAEL);
    const otherKey = randomKeyHex();
    const otherEpoch = await announceEpoch(MICHAEL.id, otherKey);
    const careKey = careNetworkKey();
    extraWraps.push(await wrapSummaryKey(MICHAEL.id, otherEpoch, otherKey, { id: CARE_NETWORK, publicKey: careKey }, MICHAEL.id));
    await pushed();
    const otherCare = wrapId({ documentId: summaryKeySubject(MICHAEL.id, otherEpoch), to: CARE_NETWORK });
    await expect.poll(() => Object.hasOwn(ledger().wraps ?? {}, otherCare)).toBe(true);
    expect((await release({ grantId: grant.id, epochId: otherEpoch, readBlock })).answer).toEqual({
      ok: false,
      reason: "the wrap is not the care network's wrap of a summary key",
    });

    // Sarah turns the care network off: her epoch's wrap is still held, but no longer released
    await signInAs(backend.service, SARAH);
    await backend.service.setCareNetworkConsent(false);
    await pushed();
    expect((await release({ grantId: grant.id, epochId, readBlock })).answer).toEqual({
      ok: false,
      reason: 'the patient does not let the care network open their records',
    });
    expect(
      server.lines.some((line) =>
        line.includes(`release refused for summary epoch ${epochId} under grant ${grant.id}: the patient does not let`),
      ),
    ).toBe(true);
  });
});
