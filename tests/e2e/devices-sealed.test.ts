// Nothing medical in clear off the patient's devices (docs/decisions/nothing-medical-in-clear.md), across two browser
// devices and the real sync server: Sarah's laptop (device A) and Dr. Wilson's PC (device B). The server stores only
// sealed text; a basic reader gets titles but no file, a full reader the files; a grant made while Sarah is offline
// opens her titles through the care network; after a revoke, her next record is sealed under a key B never gets.
import type { Browser, Page } from 'playwright-core';
import { beforeAll, onTestFinished } from 'vitest';
import { CARE_NETWORK, summaryKeySubject, wrapId } from '../../workers/core/key-wraps';
import { PATIENTS } from '../../workers/core/directory';
import type { AccessLevel, Block, ClinicalRecord } from '../../workers/core/types';
import buildServer from '../server/global-setup';
import { connectDevice, identityOf } from '../server/support/devices';
import type { ServerProcess } from '../server/support/server-process';
import { scanServerStorage } from './support/server-storage-scan';
import { connectedDevice, disconnect, serverWith, waitForSyncState } from './support/devices';
import { describe, expect, test } from './support/fixtures';
import { section, text } from './support/read';
import { downloadFile, goTo, pdfFile, pngFile, recordItem, uploadRecord } from './support/records';
import { readStoredLedger, readStoredUserKeys } from './support/stored-ledger';

const SARAH = PATIENTS[0];
const WILSON_ID = 'doctor-2'; // not Sarah's doctor: only a share or a grant lets him read her records
const WILSON = 'james.wilson@medledger.demo';
const WILSON_OPTION = 'Dr. James Wilson (Emergency Medicine)';
const SYNC_WAIT = { timeout: 30_000 }; // a block or a wrap on its way through the server, on a busy 2-core machine

beforeAll(() => buildServer());

// Sarah's uploads on device A, oldest first: the chain holds them with '' for their text and the epoch they are sealed under.
async function uploadsOn(page: Page): Promise<{ block: Block; record: ClinicalRecord }[]> {
  return (await readStoredLedger(page)).blocks.flatMap((block) =>
    block.data.patientId === SARAH.id && (block.data.type === 'prescription' || block.data.type === 'test_report')
      ? [{ block, record: block.data }]
      : [],
  );
}

// The epochs whose summary key a device keeps, from its IndexedDB meta 'summaryKeys' (read as any script of the origin could).
async function summaryEpochsOn(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('medledger');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const held = await new Promise<unknown>((resolve, reject) => {
        const request = db.transaction('meta', 'readonly').objectStore('meta').get('summaryKeys');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      return Array.isArray(held) ? held.map((key: { epochId: string }) => key.epochId) : [];
    } finally {
      db.close();
    }
  });
}

// The ids (`<documentId>|<to>`) of the wraps the server relays in its ledger document, read live by a client of
// its own that writes nothing to the ledger (it proves itself as Sarah, with the keys `page` stores).
async function relayedWraps(server: ServerProcess, page: Page): Promise<() => string[]> {
  const genesis = (await readStoredLedger(page)).blocks[0];
  const as = await identityOf(await readStoredUserKeys(page), SARAH.id);
  const client = await connectDevice(server.port, 'wrap reader', [genesis], { as });
  onTestFinished(() => client.close());
  const joined = await client.join();
  if (!joined.ok) throw new Error(`the wrap reader did not join: ${joined.reason}`);
  const handle = await client.ledger();
  return () => Object.keys(handle.doc()?.wraps ?? {});
}

const summaryWrap = (epochId: string, to: string) => wrapId({ documentId: summaryKeySubject(SARAH.id, epochId), to });

async function heightOf(page: Page): Promise<number> {
  return (await readStoredLedger(page)).blocks.length;
}

// Device B: Dr. Wilson's PC, signed in and connected to `server`.
async function doctorWilson(browser: Browser, baseUrl: string, server: ServerProcess): Promise<Page> {
  return (await connectedDevice(browser, baseUrl, server, 'doctor', 'Wilson’s PC', WILSON)).page;
}

async function shareWithWilson(page: Page, level: AccessLevel, note = ''): Promise<void> {
  await goTo(page, 'Sharing', 'Sharing');
  const form = page.getByRole('form', { name: 'Share records' });
  await form.getByLabel('Doctor', { exact: true }).selectOption({ label: WILSON_OPTION });
  await form.getByRole('radio', { name: level === 'full' ? /Full/ : /Basic/ }).check();
  if (note) await form.getByLabel(/Note for the doctor/).fill(note);
  await form.getByRole('button', { name: 'Share records' }).click();
  await page.getByText(new RegExp(`^Shared with Dr. James Wilson: ${level} access`)).waitFor({ timeout: 15_000 });
}

async function revokeWilson(page: Page): Promise<void> {
  await goTo(page, 'Sharing', 'Sharing');
  await page.getByRole('button', { name: 'Revoke the share with Dr. James Wilson' }).click();
  await page.getByText('Dr. James Wilson can no longer read your records.').waitFor({ timeout: 15_000 });
}

// Dr. Wilson asks for emergency access to Sarah's records; the SOS screen then shows what the grant lets him read.
async function grantOnSarah(wilson: Page, level: AccessLevel, reason: string): Promise<void> {
  await goTo(wilson, 'SOS Emergency', 'SOS Emergency Access');
  await wilson.getByRole('radio', { name: /Sarah Johnson/ }).check();
  await wilson.getByLabel('Reason for emergency access').fill(reason);
  await wilson.getByRole('radio', { name: level === 'full' ? /Full/ : /Basic/ }).check();
  await wilson.getByRole('button', { name: 'Grant Emergency Access' }).click();
  await wilson.getByRole('region', { name: 'Emergency Access Active' }).waitFor({ timeout: 15_000 });
}

// Dr. Wilson opens the records Sarah shares with him at `level` (My Patients, Shared with me).
async function openSharedRecords(wilson: Page, level: AccessLevel): Promise<void> {
  await goTo(wilson, 'My Patients', 'My Patients');
  const item = section(wilson, 'Shared with me')
    .getByRole('listitem')
    .filter({ hasText: 'Sarah Johnson' })
    .filter(level === 'full' ? { hasText: 'Full: complete history' } : { hasNotText: 'Full: complete history' });
  await item.waitFor(SYNC_WAIT);
  await item.getByRole('button', { name: 'Open shared records of Sarah Johnson' }).click();
  await wilson.getByRole('heading', { name: 'Records shared by Sarah Johnson', level: 2 }).waitFor();
}

describe('nothing medical in clear across devices', { timeout: 300_000 }, () => {
  test("the sync server stores none of a patient's medical text, the note of her share or the reason of a grant", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const medical = {
      titles: ['Quokka troponin follow-up', 'Narwhal liver ultrasound'],
      descriptions: ['Troponin fell to 0.04 ng/mL after the ablation', 'Steatosis grade two, no focal lesion'],
      fileNames: ['axolotl-troponin-series.pdf', 'narwhal-ultrasound-report.pdf', 'narwhal-liver-still.png'],
      fileText: 'Ocelot telemetry: three runs of ventricular tachycardia',
      note: 'Wombat second opinion on the ablation outcome',
      reason: 'Platypus overdose suspected, found unconscious',
    };
    const [troponin, ultrasound] = medical.titles;
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    await uploadRecord(page, troponin, [pdfFile(medical.fileNames[0], `%PDF-1.4 ${medical.fileText} ${'t'.repeat(200)}`)], {
      description: medical.descriptions[0],
      type: 'Test Report',
    });
    await uploadRecord(page, ultrasound, [pdfFile(medical.fileNames[1]), pngFile(medical.fileNames[2])], {
      description: medical.descriptions[1],
      type: 'Test Report',
    });
    await shareWithWilson(page, 'full', medical.note);

    const wilson = await doctorWilson(browser, baseUrl, server);
    await grantOnSarah(wilson, 'basic', medical.reason);
    // the doctor's device opened what it was let read: the check below is not passed by a device that received nothing
    const recent = section(wilson, 'Recent Records');
    await recordItem(recent, troponin).waitFor(SYNC_WAIT);
    await recordItem(recent, ultrasound).waitFor(SYNC_WAIT);
    // the note, the file names and the reason crossed the server and opened on the other device
    await openSharedRecords(wilson, 'full');
    await section(wilson, 'Shared with me').getByText(`Note: ${medical.note}`).waitFor();
    const shared = recordItem(section(wilson, 'Complete History'), ultrasound);
    await shared.getByRole('button', { name: `Download ${medical.fileNames[2]}`, exact: true }).waitFor(SYNC_WAIT);
    await goTo(page, 'Medical Records', 'Medical Records');
    const access = section(page, 'Emergency Access History').locator('li.access-entry').filter({ hasText: 'Dr. James Wilson' });
    await access.getByText(medical.reason).waitFor(SYNC_WAIT);

    // every block of both devices on the server, the doctor's reads included
    await expect
      .poll(async () => {
        const [onServer, onA, onB] = [(await server.info()).height, await heightOf(page), await heightOf(wilson)];
        return onServer === onA && onA === onB ? onServer : `server ${onServer}, A ${onA}, B ${onB}`;
      }, SYNC_WAIT)
      .toBeTypeOf('number');
    const blocks = (await readStoredLedger(wilson)).blocks;
    const newest = blocks.at(-1)!;
    expect(blocks.map(({ data }) => data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'emergency_access', emergency: expect.objectContaining({ event: 'read' }) }),
        expect.objectContaining({ type: 'access_shared', share: expect.objectContaining({ event: 'read' }) }),
      ]),
    );
    const uploads = await uploadsOn(page);
    expect(uploads).toHaveLength(2);

    const profile = [
      SARAH.dateOfBirth,
      ...SARAH.allergies,
      SARAH.emergencyContact,
      // 'O+' alone is two characters that sealed bytes in base64 hold by chance: searched as a profile field is written
      `"bloodType":"${SARAH.bloodType}"`,
    ];
    const secrets = [
      ...medical.titles,
      ...medical.descriptions,
      ...medical.fileNames,
      medical.fileText,
      medical.note,
      medical.reason,
      ...profile,
    ];
    // what the server must hold: the scan reads it once the newest block is on its disk (its writes lag its memory)
    const mustFind = [SARAH.id, newest.hash, uploads[0].block.hash, uploads[1].record.files[1].cid];
    const scanned = () => scanServerStorage(server.dir, [...mustFind, ...secrets]);
    const notFound = (scan: ReturnType<typeof scanned>) =>
      mustFind.filter((secret) => !scan.found.some((finding) => finding.secret === secret));
    await expect.poll(() => notFound(scanned()), SYNC_WAIT).toEqual([]);
    const scan = scanned();
    expect(scan.documents).toBeGreaterThan(0);
    expect(notFound(scan)).toEqual([]);
    expect(scan.found.filter((finding) => secrets.includes(finding.secret))).toEqual([]);
    // nor its log
    expect(server.lines.filter((line) => secrets.some((secret) => line.includes(secret)))).toEqual([]);
  });

  test('under a basic share the doctor reads her titles but gets no file; under a full share he opens the file byte for byte', async ({
    page,
    browser,
    baseUrl,
  }) => {
    const report = pdfFile('kestrel-lab-results.pdf', `%PDF-1.4 Kestrel panel: ferritin 9 ug/L ${'k'.repeat(300)}`);
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    await uploadRecord(page, 'Kestrel iron studies', [report], { description: 'Low ferritin', type: 'Test Report' });
    const [{ block, record }] = await uploadsOn(page);
    const documentId = record.files[0].documentId;
    const epochId = record.sealed!.key;
    const wraps = await relayedWraps(server, page);
    await shareWithWilson(page, 'basic');

    const wilson = await doctorWilson(browser, baseUrl, server);
    await openSharedRecords(wilson, 'basic');
    const item = recordItem(section(wilson, 'Recent Records'), 'Kestrel iron studies');
    await item.waitFor(SYNC_WAIT); // the title opened: the summary key reached device B
    await item.getByText('1 file: documents need full access.').waitFor();
    expect(await text(item)).not.toContain('kestrel-lab-results');
    expect(await item.getByRole('button').count()).toBe(0); // no Download or Open of the file
    // the patient's device wrapped the file's key to its readers, and Dr. Wilson is none of them under a basic share
    await expect.poll(wraps, SYNC_WAIT).toContain(summaryWrap(epochId, WILSON_ID));
    await expect.poll(wraps, SYNC_WAIT).toContain(wrapId({ documentId, to: SARAH.id }));
    expect(wraps()).not.toContain(wrapId({ documentId, to: WILSON_ID }));
    const onB = await readStoredLedger(wilson);
    expect(onB.blocks.map((b) => b.hash)).toContain(block.hash);
    expect(onB.keyIds).not.toContain(documentId);

    await revokeWilson(page);
    await shareWithWilson(page, 'full');
    await openSharedRecords(wilson, 'full');
    const full = recordItem(section(wilson, 'Complete History'), 'Kestrel iron studies');
    await full.waitFor(SYNC_WAIT);
    // the key's wrap to Dr. Wilson may still be on its way: open the file again until it comes
    const opened = async () => {
      try {
        const saved = await downloadFile(full, 'kestrel-lab-results.pdf');
        return saved.name === 'kestrel-lab-results.pdf' && saved.bytes.equals(report.buffer);
      } catch {
        return false;
      }
    };
    await expect.poll(opened, SYNC_WAIT).toBe(true);
    expect(wraps()).toContain(wrapId({ documentId, to: WILSON_ID }));
  });

  test("a basic emergency grant shows the patient's titles while her device is offline: the care network releases their key", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    await uploadRecord(page, 'Heron allergy panel', [pdfFile('heron-allergy.pdf')], { type: 'Test Report' });
    await uploadRecord(page, 'Heron inhaler prescription', [pdfFile('heron-inhaler.pdf')]);
    const uploads = await uploadsOn(page);
    const epochId = uploads[0].record.sealed!.key;
    expect(uploads.map(({ record }) => record.sealed?.key)).toEqual([epochId, epochId]);
    // the summary key is on the server for the care network before Sarah's device goes offline
    const wraps = await relayedWraps(server, page);
    await expect.poll(wraps, SYNC_WAIT).toContain(summaryWrap(epochId, CARE_NETWORK));
    expect(wraps()).not.toContain(summaryWrap(epochId, WILSON_ID));
    await disconnect(page, 'patient');

    const wilson = await doctorWilson(browser, baseUrl, server);
    await expect.poll(() => heightOf(wilson), SYNC_WAIT).toBe(await heightOf(page)); // Sarah's records reached B
    expect(await summaryEpochsOn(wilson)).not.toContain(epochId);
    await grantOnSarah(wilson, 'basic', 'Wheezing, cannot speak, allergy history needed');
    const recent = section(wilson, 'Recent Records');
    await recordItem(recent, 'Heron allergy panel').waitFor(SYNC_WAIT);
    await recordItem(recent, 'Heron inhaler prescription').waitFor();
    expect(await recent.getByText('Sealed record (its key is not on this device)').count()).toBe(0);
    expect(await summaryEpochsOn(wilson)).toContain(epochId);
    expect(
      server.lines.some((line) =>
        new RegExp(`^\\[sync\\] released the summary key of epoch ${epochId} to ${WILSON_ID} under grant `).test(line),
      ),
    ).toBe(true);
    await page.goto('/patient/profile');
    await waitForSyncState(page, 'off'); // still offline: the titles did not come from her device
  });

  test("after the patient revokes a share, her next record is sealed under a new key the doctor's device never gets", async ({
    page,
    browser,
    baseUrl,
  }) => {
    const server = await serverWith(page, 'patient', 'Sarah’s laptop');
    await uploadRecord(page, 'Ibis blood pressure log', [pdfFile('ibis-bp.pdf')], { type: 'Test Report' });
    const wraps = await relayedWraps(server, page);
    await shareWithWilson(page, 'basic');
    const wilson = await doctorWilson(browser, baseUrl, server);
    await openSharedRecords(wilson, 'basic');
    await recordItem(section(wilson, 'Recent Records'), 'Ibis blood pressure log').waitFor(SYNC_WAIT);
    const [first] = await uploadsOn(page);
    const oldEpoch = first.record.sealed!.key;
    expect(await summaryEpochsOn(wilson)).toContain(oldEpoch);

    await revokeWilson(page);
    await goTo(wilson, 'My Patients', 'My Patients');
    await section(wilson, 'Shared with me').getByText('No patient is sharing records with you.').waitFor(SYNC_WAIT);
    await uploadRecord(page, 'Ibis cardiology referral', [pdfFile('ibis-referral.pdf')]);
    const [, second] = await uploadsOn(page);
    const newEpoch = second.record.sealed!.key;
    expect(newEpoch).not.toBe(oldEpoch); // the revoke rotated Sarah's summary key
    expect(await summaryEpochsOn(page)).toEqual(expect.arrayContaining([oldEpoch, newEpoch]));

    // the new key went to Sarah's readers now (her own devices, her doctor, the care network), and B holds the
    // record's block: a wrap to Dr. Wilson, had one been made, would have travelled with them
    await expect
      .poll(wraps, SYNC_WAIT)
      .toEqual(
        expect.arrayContaining([
          summaryWrap(newEpoch, SARAH.id),
          summaryWrap(newEpoch, 'doctor-1'),
          summaryWrap(newEpoch, CARE_NETWORK),
        ]),
      );
    await expect
      .poll(async () => (await readStoredLedger(wilson)).blocks.map((b) => b.hash), SYNC_WAIT)
      .toContain(second.block.hash);
    expect(wraps()).not.toContain(summaryWrap(newEpoch, WILSON_ID));
    const onB = await summaryEpochsOn(wilson);
    expect(onB).toContain(oldEpoch); // what he held stays: keys cannot be taken back
    expect(onB).not.toContain(newEpoch);
  });
});
