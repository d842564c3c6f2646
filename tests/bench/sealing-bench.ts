// `npm run bench -- --sealing`: what opening sealed records costs the screens (workers/ledger/sealing.ts). The
// opened projection is built once per published snapshot and reader, so every new block makes the next read
// build it again, copying the projection's maps (O(records)) and re-opening only uploads not opened before.
// Through the real ledger service in Node (memory storage, the records difficulty), a patient's ledger of
// BENCH_SEALED_RECORDS sealed uploads (1,000 and 10,000 by default) is opened once, after each new block, and again;
// and another device of that storage signs in and asks for the dashboard (only its newest uploads opened), then Medical
// Records' first page (only its uploads opened), then a search of Medical Records (every upload opened).
import { cpus, loadavg } from 'node:os';
import type { RecordListPage } from '../../workers/api';
import { createSealing } from '../../workers/ledger/sealing';
import { createLedgerBackend } from '../../workers/service';
import { SARAH, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';

const ROUNDS = 9;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export interface SealingRow {
  records: number;
  firstScreenMs: number; // a device that loaded this ledger and opened nothing yet: the patient dashboard's answer
  nextScreenMs: number; // then Medical Records' first page, only its uploads opened (the dashboard began the whole build)
  searchMs: number; // then a search of Medical Records: every upload opened, that whole build waited for
  openAllMs: number; // the first read after the device loaded: every upload opened (decrypted) once
  rebuildMs: number; // the read after a new block: the maps copied, only the new upload opened
  reuseMs: number; // the read again on the same snapshot
  uploadMs: number; // service.upload, which answers with the record as read: sealing, signing, mining, one rebuild
  uploadsPerSecond: number; // while seeding
}

async function timed<T>(run: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function runSealingBench(sizes: readonly number[], log: (line: string) => void) {
  const rows: SealingRow[] = [];
  for (const size of sizes) {
    const deps = testDeps();
    const backend = createLedgerBackend(deps);
    const service = backend.service;
    const sarah = await signInAs(service, SARAH);
    const seeded = performance.now();
    for (let n = 0; n < size; n++) {
      await service.upload(uploadOf(`Sealed record ${n}`, [fileInput(`scan-${n}.pdf`, `scan ${n}`)]));
      if ((n + 1) % 1000 === 0) log(`  ${(n + 1).toLocaleString('en')} sealed uploads written`);
    }
    const uploadsPerSecond = size / ((performance.now() - seeded) / 1000);
    // a projection of its own, as a device that just loaded this ledger has: nothing opened yet
    const sealing = createSealing(backend.store, { encryptionKey: () => undefined });
    const openAllMs = await timed(() => sealing.readable(sarah));
    const [uploads, rebuilds, reuses]: number[][] = [[], [], []];
    for (let round = 0; round < ROUNDS; round++) {
      uploads.push(await timed(() => service.upload(uploadOf(`Round ${round}`))));
      rebuilds.push(await timed(() => sealing.readable(sarah)));
      reuses.push(await timed(() => sealing.readable(sarah)));
    }
    // another device of the same storage, as after a reload: it verifies the ledger at sign-in, then the dashboard asks
    // (once its signatures are checked: in Node they share this thread, in the browser checker workers do them)
    const device = createLedgerBackend({ ...deps });
    await signInAs(device.service, SARAH);
    while (device.store.current().signatures.running) await new Promise((done) => setTimeout(done, 20));
    const firstScreenMs = await timed(() => device.service.patientOverview());
    let firstPage: RecordListPage | undefined;
    const nextScreenMs = await timed(async () => (firstPage = await device.service.listRecords(SARAH.id)));
    if (firstPage?.records[0]?.title !== `Round ${ROUNDS - 1}` || firstPage.total !== size + ROUNDS + 1)
      throw new Error('Medical Records did not answer its first page opened');
    let found: RecordListPage | undefined;
    const searchMs = await timed(async () => (found = await device.service.listRecords(SARAH.id, { search: 'scan-0.pdf' })));
    if (found?.total !== 1) throw new Error('the search did not find the oldest upload');
    const newest = (await sealing.readable(sarah)).records.get(SARAH.id)?.at(-1)?.record;
    if (newest?.title !== `Round ${ROUNDS - 1}`) throw new Error('the newest upload was not opened');
    const row = {
      records: size,
      firstScreenMs,
      nextScreenMs,
      searchMs,
      openAllMs,
      rebuildMs: median(rebuilds),
      reuseMs: median(reuses),
      uploadMs: median(uploads),
      uploadsPerSecond,
    };
    log(`  ${size.toLocaleString('en')} records: ${JSON.stringify(row)}`);
    rows.push(row);
  }
  const when = { startedAt: new Date().toISOString(), node: process.version, cpu: `${cpus()[0]?.model} x${cpus().length}` };
  return { ...when, loadAverage: loadavg(), rows };
}

export function formatSealingTable(report: Awaited<ReturnType<typeof runSealingBench>>): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    `Opening sealed records (Node ${report.node}, ${report.cpu}, load ${report.loadAverage.map((l) => l.toFixed(2)).join(' ')}; medians of ${ROUNDS})`,
    '',
    '| sealed uploads | first screen: dashboard | next: Medical Records (page 1) | then: a search (opens all) | first read: open all | read after a new block | read again | upload (answers opened) | seeding, uploads/s |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map(
      (r) =>
        `| ${r.records.toLocaleString('en')} | ${ms(r.firstScreenMs)} | ${ms(r.nextScreenMs)} | ${ms(r.searchMs)} | ${ms(r.openAllMs)} | ${ms(r.rebuildMs)} | ${ms(r.reuseMs)} | ${ms(r.uploadMs)} | ${r.uploadsPerSecond.toFixed(0)} |`,
    ),
  ].join('\n');
}
