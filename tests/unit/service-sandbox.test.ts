import { describe, expect, it } from 'vitest';
import { proxy } from 'comlink';
import type { MiningProgress } from '../../workers/api';
import { createTestLedgerService } from '../support/test-ledger';
import { RESTRICTED_TITLE } from '../../workers/ledger/views';
import { DEFAULT_YIELD_EVERY } from '../../workers/core/mining';
import { MICHAEL, SARAH, errorOf, signInAs, uploadOf } from '../support/ledger-fixtures';

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

  it('names the tampered block, and the real chain stays valid and unchanged', async () => {
    const service = await sarahWithRecords();
    await service.sandboxReset(0);
    const status = await service.sandboxTamper(2, 'Forged');
    expect(status.valid).toBe(false);
    expect(status.firstInvalid).toEqual({ index: 2, reason: 'record data was changed (data hash mismatch)' });
    expect((await service.sandboxPage(0, 10)).blocks.find((b) => b.index === 2)?.title).toBe('Forged');
    expect(await service.chainStatus()).toMatchObject({ valid: true, height: 4 });
    expect((await service.block(2)).data.title).toBe('Report 2');
  });

  it('after re-mining the tampered block, points at the next link instead', async () => {
    const service = await sarahWithRecords();
    await service.sandboxReset(0);
    await service.sandboxTamper(1, 'Forged');
    const status = await service.sandboxRemine(1);
    expect(status.firstInvalid).toEqual({ index: 2, reason: 'previousHash does not match block 1' });
  });

  it('hides records the reader may not see, except a title the reader typed', async () => {
    const service = await sarahWithRecords(1);
    await signInAs(service, MICHAEL);
    await service.sandboxReset(0);
    expect((await service.sandboxPage(0, 10)).blocks.map((b) => b.title)).toEqual([RESTRICTED_TITLE, RESTRICTED_TITLE]);
    await service.sandboxTamper(1, 'Typed by Michael');
    expect((await service.sandboxPage(0, 10)).blocks.map((b) => b.title)).toEqual(['Typed by Michael', RESTRICTED_TITLE]);
  });

  it('refuses a block index that does not exist', async () => {
    const service = await sarahWithRecords(0);
    expect((await errorOf(service.sandboxTamper(5, 'x'))).name).toBe('NotFoundError');
    expect((await errorOf(service.sandboxRemine(-1))).name).toBe('NotFoundError');
  });
});

describe('mining in the sandbox', () => {
  it('mines the blocks asked for at the chosen difficulty and reports progress', async () => {
    const service = await sarahWithRecords(0);
    await service.sandboxReset(0);
    const reports: MiningProgress[] = [];
    const result = await service.mineSandbox('job-1', 3, 3, proxy((p: MiningProgress) => void reports.push(p)));
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
    await service.mineSandbox('easy', 1, 2, proxy(() => undefined));
    expect((await service.sandboxPage(0, 1)).status).toMatchObject({ height: 5, valid: true, difficulty: 1 });
  });

  it('stops a job when it is cancelled by id, within a few hash chunks and without finishing the block', async () => {
    const service = await sarahWithRecords(0);
    await service.sandboxReset(0);
    let firstReport: (progress: MiningProgress) => void = () => undefined;
    const reported = new Promise<MiningProgress>((resolve) => (firstReport = resolve));
    const mining = service.mineSandbox('hard', 6, 5, proxy((progress: MiningProgress) => firstReport(progress)));
    const before = await reported;
    expect(await service.cancelJob('hard')).toBe(true);
    const result = await mining;
    // the loop checks for a cancel between chunks of DEFAULT_YIELD_EVERY hashes: counted, not timed
    expect(result.attempts - before.attempts).toBeLessThanOrEqual(4 * DEFAULT_YIELD_EVERY);
    expect(result).toMatchObject({ cancelled: true, blocksMined: 0 });
    expect((await service.sandboxPage(0, 1)).status.height).toBe(1);
    expect(await service.cancelJob('hard')).toBe(false);
  });


  it('refuses a difficulty outside 1 to 6, a bad block count and a second job at once', async () => {
    const service = await sarahWithRecords(0);
    const none = proxy(() => undefined);
    expect(await errorOf(service.mineSandbox('j', 7, 1, none))).toEqual({ name: 'ValidationError', message: 'Choose a difficulty from 1 to 6.' });
    expect(await errorOf(service.mineSandbox('j', 0, 1, none))).toEqual({ name: 'ValidationError', message: 'Choose a difficulty from 1 to 6.' });
    expect(await errorOf(service.mineSandbox('j', 2, 0, none))).toEqual({ name: 'ValidationError', message: 'Choose from 1 to 1000 blocks.' });
    const running = service.mineSandbox('long', 6, 1, none);
    expect(await errorOf(service.mineSandbox('other', 1, 1, none))).toEqual({
      name: 'ValidationError',
      message: 'A mining job is already running.',
    });
    await service.cancelJob('long');
    expect((await running).cancelled).toBe(true);
  });
});
