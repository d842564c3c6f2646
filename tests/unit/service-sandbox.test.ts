import { describe, expect, it } from 'vitest';
import { proxy } from 'comlink';
import type { LedgerService, MiningProgress, PeerName, SandboxEdit } from '../../workers/api';
import { blockHash, createGenesisBlock, headsBlockHash, mineBlock } from '../../workers/core/chain';
import { createTestLedgerService } from '../support/test-ledger';
import { DEFAULT_YIELD_EVERY } from '../../workers/core/mining';
import { SANDBOX_RESTRICTED_EDIT, peerChain, readerCopy, recheckAll, sandboxRecord } from '../../workers/core/sandbox-chain';
import { CARTER, MICHAEL, SARAH, WILSON, createClock, errorOf, signInAs, uploadOf } from '../support/ledger-fixtures';

async function sarahWithRecords(count = 3) {
  const service = createTestLedgerService();
  await signInAs(service, SARAH);
  for (let i = 1; i <= count; i++) await service.upload(uploadOf(`Report ${i}`));
  return service;
}

describe('the sandbox', () => {
  it('starts as a copy of the real chain, newest first', async () => {
    const service = await sarahWithRecords();
    const page = await service.sandboxReset(0);
    expect(page.total).toBe(4);
    expect(page.blocks.map((b) => b.title)).toEqual(['Report 3', 'Report 2', 'Report 1', 'Initial health assessment']);
    expect(page.blocks[0].hash).toBe((await service.blocksPage(0, 1)).blocks[0].hash);
  });

  it('builds n valid demo blocks when asked for them', async () => {
    const service = await sarahWithRecords(0);
    const page = await service.sandboxReset(30);
    expect(page.total).toBe(30);
    expect(page.blocks).toHaveLength(20);
    const { status } = await service.sandboxPage(0, 5);
    expect(status).toMatchObject({ height: 30, valid: true, difficulty: 2, readOnly: false });
  });

  it('keeps the chain of the last reset asked for when a copy of the records chain is still being made', async () => {
    const service = await sarahWithRecords();
    // the explorer asks for a copy when it opens; a rebuild chosen at once must not be overwritten by that copy
    const [copy, demo] = await Promise.all([service.sandboxReset(0), service.sandboxReset(2)]);
    expect(copy.total).toBe(2);
    expect(demo.total).toBe(2);
    const { status } = await service.sandboxPage(0, 1);
    expect(status.height).toBe(2);
  });

  it('reports the blocks built so far while it builds a demo chain', async () => {
    const service = await sarahWithRecords(0);
    const seen: MiningProgress[] = [];
    await service.sandboxReset(
      1000,
      proxy((progress: MiningProgress) => void seen.push(progress)),
    );
    expect(seen.map((progress) => progress.blocksMined)).toEqual([250, 500, 750]);
    expect(seen.every((progress) => progress.blocksTotal === 1000 && progress.attempts >= progress.blocksMined)).toBe(true);
  });

  it('names an edited block by its own check, and the real chain stays valid and unchanged', async () => {
    const service = await sarahWithRecords();
    await service.sandboxReset(0);
    const result = await service.sandboxEdit({ peer: 'A', index: 2, seq: 1, title: 'Forged' });
    if (result.stale) throw new Error('a first edit is never stale');
    expect(result.status.valid).toBe(false);
    expect(result.status.firstInvalid?.index).toBe(2);
    const rows = (await service.sandboxPage(0, 10)).blocks;
    expect(rows.find((b) => b.index === 2)?.title).toBe('Forged');
    expect(rows.find((b) => b.index === 1)?.title).toBe('Report 1'); // an unedited sealed upload: the title Sarah opens
    expect(await service.chainStatus()).toMatchObject({ valid: true, height: 4 });
    // the real block is as stored: its title sealed ('' in clear), read as Sarah opens it
    expect((await service.block(2)).data).toMatchObject({ title: '', sealed: expect.any(Object) });
    expect((await service.blocksPage(0, 10)).blocks.find((b) => b.index === 2)?.title).toBe('Report 2');
  });

  it('after re-mining the edited block, its hash holds but its signature fails, and the next link breaks', async () => {
    const service = await sarahWithRecords();
    await service.sandboxReset(0);
    await service.sandboxEdit({ peer: 'A', index: 1, seq: 1, title: 'Forged' });
    const status = await service.sandboxRemine(1);
    expect(status.firstInvalid).toEqual({
      index: 1,
      reason: 'signature no longer matches: the block changed, and only its author can sign it again',
    });
    const rows = (await service.sandboxPage(0, 10)).blocks;
    expect(rows.find((b) => b.index === 1)).toMatchObject({ signature: 'fails', author: SARAH.id });
    expect(rows.find((b) => b.index === 2)?.problem).toBe('previousHash does not match block 1');
    expect(rows.find((b) => b.index === 0)).toMatchObject({ signature: 'holds', author: 'ledger' });
  });

  it('hides records the reader may not see, and refuses to edit them', async () => {
    const service = await sarahWithRecords(1);
    await signInAs(service, MICHAEL);
    const reset = await service.sandboxReset(0);
    expect(reset.blocks.map((b) => b.restricted)).toEqual([true, true]);
    expect((await service.sandboxPage(0, 10)).blocks.map((b) => [b.restricted, b.title])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    const opened = await service.sandboxBlock(1);
    expect(opened).toEqual({
      restricted: true,
      index: 1,
      hash: reset.blocks[0].hash,
      previousHash: reset.blocks[1].hash,
      timestamp: reset.blocks[0].timestamp,
      nonce: reset.blocks[0].nonce,
      dataHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await errorOf(service.sandboxEdit({ peer: 'A', index: 1, seq: 1, title: 'Typed by Michael' }))).toEqual({
      name: 'AccessDeniedError',
      message: SANDBOX_RESTRICTED_EDIT,
    });
    expect(await errorOf(service.sandboxEdit({ peer: 'A', index: 1, seq: 2, description: 'Also typed' }))).toEqual({
      name: 'AccessDeniedError',
      message: SANDBOX_RESTRICTED_EDIT,
    });
    expect(await service.sandboxBlock(1)).toEqual(opened);
  });

  it('refuses a block index that does not exist, a peer it does not know and an edit without text', async () => {
    const service = await sarahWithRecords(0);
    expect((await errorOf(service.sandboxEdit({ peer: 'A', index: 5, seq: 1, title: 'x' }))).name).toBe('NotFoundError');
    expect((await errorOf(service.sandboxRemine(-1))).name).toBe('NotFoundError');
    expect((await errorOf(service.sandboxBlock(1.5))).name).toBe('NotFoundError');
    expect(await errorOf(service.sandboxPage(0, 1, 'D' as PeerName))).toEqual({
      name: 'ValidationError',
      message: 'Choose peer A, B or C.',
    });
    expect(await errorOf(service.sandboxEdit({ peer: 'A', index: 0, seq: 1 }))).toEqual({
      name: 'ValidationError',
      message: 'An edit changes the title, the description or both.',
    });
    expect(await errorOf(service.sandboxEdit({ peer: 'A', index: 0, seq: -1, title: 'x' }))).toEqual({
      name: 'ValidationError',
      message: 'An edit needs a sequence number, a whole number of 0 or more.',
    });
    expect(await errorOf(service.sandboxEdit(null as unknown as SandboxEdit))).toMatchObject({ name: 'ValidationError' });
    expect(await errorOf(service.sandboxEdit({ peer: 'A', index: 0, seq: 1, description: 7 as unknown as string }))).toEqual({
      name: 'ValidationError',
      message: 'The description must be text.',
    });
    expect(await errorOf(service.sandboxEdit({ peer: 'A', index: 0, seq: 1, description: 'd'.repeat(5001) }))).toEqual({
      name: 'ValidationError',
      message: 'The description is longer than 5000 characters.',
    });
  });
});

// A 20-block demo chain at a fixed time: every hash is the same on every run.
async function demoSandbox(blocks = 20) {
  const clock = createClock();
  const service = createTestLedgerService({ now: clock.now });
  await signInAs(service, SARAH);
  await service.sandboxReset(blocks);
  return service;
}

async function allRows(service: LedgerService, peer: PeerName = 'A') {
  const { blocks, status } = await service.sandboxPage(0, 500, peer);
  return { rows: [...blocks].reverse(), status }; // oldest first: rows[i] is block i
}

describe('the live sandbox chain', () => {
  it("recomputes the edited block's data hash and hash with its nonce, and marks it and every later block invalid", async () => {
    const service = await demoSandbox();
    const before = await service.sandboxBlock(7);
    const result = await service.sandboxEdit({ peer: 'A', index: 7, seq: 1, title: 'Changed after the fact' });
    if (result.stale) throw new Error('a first edit is never stale');
    const { block, next, status } = result;
    expect(block.nonce).toBe(before.nonce);
    expect(block.dataHash).not.toBe(before.dataHash);
    expect(block.hash).toBe(blockHash(7, before.previousHash, before.timestamp, block.dataHash, before.nonce));
    expect(block.hash).not.toBe(before.hash);
    expect(block.title).toBe('Changed after the fact');
    expect(block.problem).toBe('hash does not meet difficulty 2');
    expect(next).toMatchObject({ index: 8, problem: 'previousHash does not match block 7' });
    expect(status).toMatchObject({ valid: false, firstInvalid: { index: 7, reason: 'hash does not meet difficulty 2' } });

    const { rows } = await allRows(service);
    expect(rows.slice(0, 7).every((row) => row.problem === undefined)).toBe(true);
    expect(rows[7]).toMatchObject({
      title: 'Changed after the fact',
      hash: block.hash,
      problem: 'hash does not meet difficulty 2',
    });
    expect(rows[8].problem).toBe('previousHash does not match block 7');
    // the blocks after the broken link pass their own checks: they are invalid only as followers of block 7
    expect(rows.slice(9).every((row) => row.problem === undefined && row.index > status.firstInvalid!.index)).toBe(true);
  });

  it('is valid again when the text is typed back, since the hash is the original one', async () => {
    const service = await demoSandbox();
    const original = await service.sandboxBlock(3);
    await service.sandboxEdit({ peer: 'A', index: 3, seq: 1, title: 'Demo record 3 changed' });
    const result = await service.sandboxEdit({ peer: 'A', index: 3, seq: 2, title: original.title });
    expect(result).toMatchObject({ stale: false, block: { hash: original.hash }, status: { valid: true } });
    expect((await allRows(service)).rows.every((row) => row.problem === undefined)).toBe(true);
  });

  it('answers an edit older than the last one applied as stale, without computing it', async () => {
    const service = await demoSandbox();
    expect(await service.sandboxEdit({ peer: 'A', index: 4, seq: 5, title: 'newest' })).toMatchObject({ stale: false, seq: 5 });
    expect(await service.sandboxEdit({ peer: 'A', index: 4, seq: 3, title: 'older' })).toEqual({ stale: true, seq: 3 });
    expect((await service.sandboxBlock(4)).title).toBe('newest');
    // each block has its own sequence
    expect(await service.sandboxEdit({ peer: 'A', index: 5, seq: 1, title: 'other block' })).toMatchObject({ stale: false });
  });

  it('re-mines from the edited block to the tip as a job with progress, and every block is valid again', async () => {
    const service = await demoSandbox();
    await service.sandboxEdit({ peer: 'A', index: 7, seq: 1, title: 'Changed after the fact' });
    const reports: MiningProgress[] = [];
    const result = await service.sandboxRemineFrom(
      'remine-1',
      7,
      'A',
      proxy((p: MiningProgress) => void reports.push(p)),
    );
    expect(result).toMatchObject({ jobId: 'remine-1', from: 7, blocksMined: 13, blocksTotal: 13, cancelled: false });
    expect(result.status).toMatchObject({ valid: true, height: 20 });
    expect(result.attempts).toBeGreaterThanOrEqual(13);
    expect(result.hashRate).toBeGreaterThan(0);
    expect(reports.at(-1)).toMatchObject({ jobId: 'remine-1', blocksMined: 13, attempts: result.attempts });
    const { rows } = await allRows(service);
    expect(rows.every((row) => row.problem === undefined && row.hash.startsWith('00'))).toBe(true);
    expect(rows[7].title).toBe('Changed after the fact');
    expect(await service.cancelJob('remine-1')).toBe(false);
  });

  it('keeps the blocks re-mined before a cancel, and names the next link', async () => {
    const service = await demoSandbox(200);
    await service.sandboxEdit({ peer: 'A', index: 0, seq: 1, title: 'A new genesis' });
    const job = service.sandboxRemineFrom(
      'remine-2',
      0,
      'A',
      proxy(() => undefined),
    );
    // cancelled as soon as the job exists; the loop sees it at its next yield (5,000 attempts: ~20 blocks at difficulty 2)
    while (!(await service.cancelJob('remine-2'))) await new Promise((resolve) => setImmediate(resolve));
    const result = await job;
    expect(result.cancelled).toBe(true);
    expect(result.blocksMined).toBeGreaterThan(0);
    expect(result.blocksMined).toBeLessThan(200);
    expect(result.status.firstInvalid).toEqual({
      index: result.blocksMined,
      reason: `previousHash does not match block ${result.blocksMined - 1}`,
    });
  });

  it('refuses to re-mine while another job runs', async () => {
    const service = await demoSandbox();
    const none = proxy(() => undefined);
    const running = service.mineSandbox('long', 6, 1, none);
    expect(await errorOf(service.sandboxRemineFrom('other', 0, 'A', none))).toEqual({
      name: 'ValidationError',
      message: 'A mining job is already running.',
    });
    await service.cancelJob('long');
    await running;
  });
});

describe('the peers', () => {
  it('start as three equal copies', async () => {
    const service = await demoSandbox();
    const report = await service.sandboxPeers();
    expect(report.peers.map((peer) => peer.peer)).toEqual(['A', 'B', 'C']);
    expect(new Set(report.peers.map((peer) => peer.tipHash)).size).toBe(1);
    expect(report.peers.every((peer) => peer.differsFrom === undefined && peer.status.valid)).toBe(true);
    expect(report.noMajorityFrom).toBeUndefined();
  });

  it('name the copy that was changed and re-mined, and the block it differs from, though it verifies by itself', async () => {
    const service = await demoSandbox();
    await service.sandboxEdit({ peer: 'B', index: 5, seq: 1, title: 'Rewritten on B' });
    let report = await service.sandboxPeers();
    expect(report.peers[1]).toMatchObject({ peer: 'B', differsFrom: 5, status: { valid: false, firstInvalid: { index: 5 } } });
    await service.sandboxRemineFrom(
      'remine-b',
      5,
      'B',
      proxy(() => undefined),
    );
    report = await service.sandboxPeers();
    const [a, b, c] = report.peers;
    expect(b).toMatchObject({ peer: 'B', differsFrom: 5, status: { valid: true, height: 20 } });
    expect(a.differsFrom).toBeUndefined();
    expect(c.differsFrom).toBeUndefined();
    expect(a.tipHash).toBe(c.tipHash);
    expect(b.tipHash).not.toBe(a.tipHash);
    // peer A's own view was never touched
    expect((await allRows(service, 'A')).rows[5].title).toBe('Demo record 5');
    expect((await allRows(service, 'B')).rows[5].title).toBe('Rewritten on B');
  });

  it('say when no two copies agree', async () => {
    const service = await demoSandbox();
    await service.sandboxEdit({ peer: 'B', index: 9, seq: 1, title: 'B' });
    await service.sandboxEdit({ peer: 'C', index: 12, seq: 1, title: 'C' });
    await service.sandboxEdit({ peer: 'A', index: 12, seq: 1, title: 'A' });
    const report = await service.sandboxPeers();
    expect(report.peers.map((peer) => peer.differsFrom)).toEqual([12, 9, 12]);
    expect(report.noMajorityFrom).toBe(12);
  });

  it('take the blocks the mining lab mines when they agree with peer A', async () => {
    const service = await demoSandbox(3);
    await service.mineSandbox(
      'lab',
      1,
      2,
      proxy(() => undefined),
    );
    const report = await service.sandboxPeers();
    expect(report.peers.map((peer) => peer.status.height)).toEqual([5, 5, 5]);
    expect(report.peers.every((peer) => peer.differsFrom === undefined && peer.status.valid)).toBe(true);
  });
});

describe('mining in the sandbox', () => {
  it('mines the blocks asked for at the chosen difficulty and reports progress', async () => {
    const service = await sarahWithRecords(0);
    await service.sandboxReset(0);
    const reports: MiningProgress[] = [];
    const result = await service.mineSandbox(
      'job-1',
      3,
      3,
      proxy((p: MiningProgress) => void reports.push(p)),
    );
    expect(result).toMatchObject({ jobId: 'job-1', blocksMined: 3, blocksTotal: 3, cancelled: false });
    expect(result.attempts).toBeGreaterThan(3);
    expect(reports.at(-1)).toMatchObject({ jobId: 'job-1', blocksMined: 3, attempts: result.attempts });
    const { blocks, status } = await service.sandboxPage(0, 3);
    expect(blocks.every((b) => b.hash.startsWith('000'))).toBe(true);
    expect(status).toMatchObject({ height: 4, valid: true });
    expect(await service.chainStatus()).toMatchObject({ height: 1 }); // the real chain is never touched
  });

  it('keeps the sandbox verifiable after mining at a lower difficulty than its blocks', async () => {
    const service = await sarahWithRecords(0);
    await service.sandboxReset(3);
    await service.mineSandbox(
      'easy',
      1,
      2,
      proxy(() => undefined),
    );
    expect((await service.sandboxPage(0, 1)).status).toMatchObject({ height: 5, valid: true, difficulty: 1 });
  });

  it('stops a job when it is cancelled by id, within a few hash chunks, keeping only whole blocks', async () => {
    const service = await sarahWithRecords(0);
    await service.sandboxReset(0);
    let firstReport: (progress: MiningProgress) => void = () => undefined;
    const reported = new Promise<MiningProgress>((resolve) => (firstReport = resolve));
    const mining = service.mineSandbox(
      'hard',
      6,
      5,
      proxy((progress: MiningProgress) => firstReport(progress)),
    );
    const before = await reported;
    expect(await service.cancelJob('hard')).toBe(true);
    const result = await mining;
    // the loop checks for a cancel between chunks of DEFAULT_YIELD_EVERY hashes: counted, not timed
    expect(result.attempts - before.attempts).toBeLessThanOrEqual(4 * DEFAULT_YIELD_EVERY);
    // a difficulty-6 block (1 in 16.7 million hashes) can still be found by luck before the cancel: nothing half-mined is kept
    expect(result).toMatchObject({ cancelled: true });
    expect(result.blocksMined).toBeLessThan(5);
    expect((await service.sandboxPage(0, 1)).status.height).toBe(1 + result.blocksMined);
    expect(await service.cancelJob('hard')).toBe(false);
  });

  it('refuses a difficulty outside 1 to 6, a bad block count and a second job at once', async () => {
    const service = await sarahWithRecords(0);
    const none = proxy(() => undefined);
    expect(await errorOf(service.mineSandbox('j', 7, 1, none))).toEqual({
      name: 'ValidationError',
      message: 'Choose a difficulty from 1 to 6.',
    });
    expect(await errorOf(service.mineSandbox('j', 0, 1, none))).toEqual({
      name: 'ValidationError',
      message: 'Choose a difficulty from 1 to 6.',
    });
    expect(await errorOf(service.mineSandbox('j', 2, 0, none))).toEqual({
      name: 'ValidationError',
      message: 'Choose from 1 to 1000 blocks.',
    });
    const running = service.mineSandbox('long', 6, 1, none);
    expect(await errorOf(service.mineSandbox('other', 1, 1, none))).toEqual({
      name: 'ValidationError',
      message: 'A mining job is already running.',
    });
    await service.cancelJob('long');
    expect((await running).cancelled).toBe(true);
  });
});

// Michael's "HIV test" (block 1), then Sarah's test report, prescription, share, file deletion and acknowledgement
// of Dr. Wilson's emergency access (his own block).
async function mixedLedger() {
  const service = createTestLedgerService();
  await signInAs(service, MICHAEL);
  await service.upload(uploadOf('HIV test'));
  await signInAs(service, SARAH);
  const report = await service.upload(uploadOf('Blood work'));
  await service.upload(uploadOf('Antibiotics', undefined, { type: 'prescription' }));
  await service.shareRecords({ doctorId: CARTER.id, accessLevel: 'full', durationDays: 0 });
  await service.deleteDocument(report.record.documentIds[0]);
  await signInAs(service, WILSON);
  const grant = await service.requestEmergencyAccess({
    patientId: SARAH.id,
    reason: 'Unconscious in the ER',
    accessLevel: 'basic',
    durationMinutes: 15,
  });
  await signInAs(service, SARAH);
  await service.endEmergencyAccessAsPatient(grant.id); // an open session cannot be dismissed
  await service.acknowledgeEmergencyAccesses();
  return service;
}

const HIDDEN_FIELDS = ['patientId', 'author', 'type', 'title', 'description'];

// Every row of the reader's real explorer, sandbox copy (as reset and as paged) and sandbox editor, oldest first.
async function everyView(service: LedgerService) {
  const chain = [...(await service.blocksPage(0, 500)).blocks].reverse();
  const reset = [...(await service.sandboxReset(0)).blocks].reverse();
  const paged = [...(await service.sandboxPage(0, 500)).blocks].reverse();
  const opened = await Promise.all(chain.map((row) => service.sandboxBlock(row.index)));
  return { chain, reset, paged, opened };
}

function expectRestricted(row: object) {
  expect(row).toMatchObject({ restricted: true });
  for (const field of HIDDEN_FIELDS) expect(row).not.toHaveProperty(field);
}

describe("a reader's view of blocks they may not read", () => {
  it("does not say whether a guessed title of another patient's record is right: Sarah's three guesses get no hash back", async () => {
    const service = createTestLedgerService();
    await signInAs(service, MICHAEL);
    await service.upload(uploadOf('HIV test'));
    await signInAs(service, SARAH);
    await service.sandboxReset(0);
    const original = (await service.sandboxBlock(1)).hash;
    const answers: string[] = [];
    for (const [seq, title] of ['Flu vaccine', 'HIV test', 'Cholesterol panel'].entries()) {
      const answer = await service.sandboxEdit({ peer: 'A', index: 1, seq: seq + 1, title }).then(
        (result) => (result.stale ? 'stale' : result.block.hash),
        (error: Error) => `${error.name}: ${error.message}`,
      );
      answers.push(answer);
    }
    expect(answers.filter((answer) => answer === original)).toEqual([]);
    expect(answers).toEqual(Array(3).fill(`AccessDeniedError: ${SANDBOX_RESTRICTED_EDIT}`));
    // nothing changed: the block and its neighbours still verify with the original hash
    expect((await service.sandboxBlock(1)).hash).toBe(original);
    expect((await service.sandboxPage(0, 10)).status.valid).toBe(true);
  });

  it('keeps a restricted block opaque in the sandbox: no record data, and re-mining across it keeps its data hash', async () => {
    const service = createTestLedgerService();
    await signInAs(service, MICHAEL);
    await service.upload(uploadOf('HIV test', undefined, { description: 'Negative' }));
    await signInAs(service, SARAH);
    await service.upload(uploadOf('Report after'));
    const page = await service.sandboxReset(0);
    const before = await service.sandboxBlock(1);
    expectRestricted(before);
    expect(before.hash).toBe((await service.blocksPage(1, 1)).blocks[0].hash);
    await service.sandboxEdit({ peer: 'A', index: 0, seq: 1, title: 'A new genesis' });
    const result = await service.sandboxRemineFrom(
      'across',
      0,
      'A',
      proxy(() => undefined),
    );
    expect(result).toMatchObject({ blocksMined: 3, cancelled: false });
    const after = await service.sandboxBlock(1);
    expect(after.dataHash).toBe(before.dataHash);
    expect(after.hash).not.toBe(before.hash);
    expect(after.hash).toBe(headsBlockHash([after.previousHash], before.timestamp, before.dataHash, after.nonce));
    expect(after.problem).toBe('signature no longer matches: the block changed, and only its author can sign it again');
    expectRestricted(after);
    const rows = (await service.sandboxPage(0, 10)).blocks;
    expect(rows.find((row) => row.index === 2)).toMatchObject({ title: 'Report after', author: SARAH.id });
    expect(JSON.stringify([page, rows, after, await service.sandboxPeers()])).not.toMatch(/HIV test|Negative|patient-2/);
  });

  it('copies a block as its header alone, and still names a changed record at that block', () => {
    const at = '2026-03-02T10:00:00.000Z';
    const genesis = createGenesisBlock(sandboxRecord(0, at, false), at, 2);
    const blocks = [genesis, mineBlock(genesis, sandboxRecord(1, at, false), at, 2)];
    blocks[1] = { ...blocks[1], data: { ...blocks[1].data, title: 'Changed in the store' } };
    const hidden = peerChain(
      readerCopy(blocks, () => false),
      new Map(),
    );
    const shown = peerChain(
      readerCopy(blocks, () => true),
      new Map(),
    );
    recheckAll(hidden, 2);
    recheckAll(shown, 2);
    expect(JSON.stringify(hidden.blocks)).not.toMatch(/Changed in the store|Demo record|sandbox/);
    expect(hidden.blocks.map((block) => block.dataHash)).toEqual(blocks.map((block) => block.dataHash));
    expect([...hidden.problems]).toEqual([[1, 'record data was changed (data hash mismatch)']]);
    expect(shown.problems).toEqual(hidden.problems);
  });

  it("shows Michael only the index, time and hash of Sarah's blocks, and his own block in full", async () => {
    const service = await mixedLedger();
    await signInAs(service, MICHAEL);
    const views = await everyView(service);
    for (const rows of Object.values(views)) {
      expect(rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      for (const row of rows.filter((row) => row.index !== 1)) expectRestricted(row);
      expect(rows[1]).toMatchObject({ title: 'HIV test', patientId: MICHAEL.id, author: MICHAEL.id, type: 'test_report' });
      expect(JSON.stringify(rows)).not.toMatch(
        /patient-1|doctor-|ledger|diagnosis|prescription|access_|document_deleted|emergency/,
      );
    }
    expect(views.chain.map((row) => row.hash)).toEqual(views.paged.map((row) => row.hash));
    expect(views.opened[1]).toMatchObject({ description: '' });
  });

  it("shows Dr. Wilson his patient's and his own blocks in full, and only the index, time and hash of Sarah's", async () => {
    const service = await mixedLedger();
    await signInAs(service, WILSON);
    const views = await everyView(service);
    for (const rows of Object.values(views)) {
      expect(rows[1]).toMatchObject({ title: 'HIV test', patientId: MICHAEL.id, author: MICHAEL.id });
      expect(rows[6]).toMatchObject({ type: 'emergency_access', patientId: SARAH.id, author: WILSON.id });
      expect(rows[7]).toMatchObject({ type: 'emergency_access', patientId: SARAH.id, author: SARAH.id }); // she ended it
      for (const row of rows.filter((row) => ![1, 6, 7].includes(row.index))) expectRestricted(row);
      expect(JSON.stringify(rows)).not.toMatch(/prescription|access_acknowledged|Antibiotics|Blood work/);
    }
  });

  it("shows Sarah every block but Michael's in full, with its author and type", async () => {
    const service = await mixedLedger();
    const { chain, paged } = await everyView(service);
    for (const rows of [chain, paged]) {
      expectRestricted(rows[1]);
      expect(rows.map((row) => ('type' in row ? row.type : 'restricted'))).toEqual([
        'diagnosis',
        'restricted',
        'test_report',
        'prescription',
        'access_shared',
        'document_deleted',
        'emergency_access',
        'emergency_access',
        'access_acknowledged',
      ]);
      expect(rows[3]).toMatchObject({ title: 'Antibiotics', author: SARAH.id, patientId: SARAH.id });
    }
  });
});
