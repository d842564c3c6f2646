// The live sandbox chain, the peers and the anchor over a real MessageChannel, as the page calls them.
import { proxy, type Remote } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerService, MiningProgress, SandboxEditResult } from '../../workers/api';
import { connectLedger, type ConnectedLedger } from '../support/ledger-over-channel';
import { SARAH, createClock, signInAs, uploadOf } from '../support/ledger-fixtures';

let connected: ConnectedLedger | null = null;

async function connect(blocks = 20): Promise<Remote<LedgerService>> {
  connected = connectLedger({ now: createClock().now });
  await signInAs(connected.proxy, SARAH);
  if (blocks > 0) await connected.proxy.sandboxReset(blocks);
  return connected.proxy;
}

afterEach(() => {
  connected?.close();
  connected = null;
});

async function rejectionOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected a rejection');
}

describe('the live sandbox chain over a MessageChannel', () => {
  it("answers each keystroke's edit with the block's new hash, its next link and the status, as plain data", async () => {
    const ledger = await connect();
    const answers: SandboxEditResult[] = [];
    // keystrokes sent without waiting: each is computed in order, and the last one holds the final text
    const typed = ['C', 'Ch', 'Cha', 'Chan', 'Chang', 'Change', 'Changed'];
    await Promise.all(
      typed.map((title, at) => ledger.sandboxEdit({ peer: 'A', index: 7, seq: at + 1, title }).then((a) => answers.push(a))),
    );
    const last = answers.find((answer) => answer.seq === typed.length);
    expect(last).toMatchObject({
      stale: false,
      block: { index: 7, title: 'Changed' },
      next: { index: 8, problem: 'previousHash does not match block 7' },
    });
    expect(last && !last.stale && last.status.firstInvalid?.index).toBe(7);
    expect((await ledger.sandboxBlock(7)).title).toBe('Changed');
  });

  it('drops an edit that arrives after a newer one of the same block', async () => {
    const ledger = await connect();
    await ledger.sandboxEdit({ peer: 'A', index: 3, seq: 9, title: 'newest' });
    expect(await ledger.sandboxEdit({ peer: 'A', index: 3, seq: 8, title: 'late' })).toEqual({ stale: true, seq: 8 });
    expect((await ledger.sandboxBlock(3)).title).toBe('newest');
  });

  it('re-mines from a block to the tip with progress through Comlink.proxy, and every block is valid again', async () => {
    const ledger = await connect(300);
    await ledger.sandboxEdit({ peer: 'A', index: 1, seq: 1, title: 'Changed' });
    const reports: MiningProgress[] = [];
    const result = await ledger.sandboxRemineFrom(
      'remine',
      1,
      'A',
      proxy((progress: MiningProgress) => void reports.push(progress)),
    );
    expect(result).toMatchObject({
      jobId: 'remine',
      from: 1,
      blocksMined: 299,
      blocksTotal: 299,
      cancelled: false,
      status: { valid: true },
    });
    await expect.poll(() => reports.at(-1)?.blocksMined).toBe(299);
    expect((await ledger.sandboxPage(0, 500)).blocks.every((block) => block.problem === undefined)).toBe(true);
  });

  it('cancels a re-mine by job id, keeping what was re-mined', async () => {
    const ledger = await connect(2000);
    await ledger.sandboxEdit({ peer: 'A', index: 0, seq: 1, title: 'Changed' });
    const job = ledger.sandboxRemineFrom(
      'remine',
      0,
      'A',
      proxy(() => undefined),
    );
    await expect.poll(() => ledger.cancelJob('remine'), { interval: 1 }).toBe(true);
    const result = await job;
    expect(result.cancelled).toBe(true);
    expect(result.blocksMined).toBeLessThan(2000);
    expect(result.status.firstInvalid?.index).toBe(result.blocksMined);
  });

  it('reports which peer disagrees and from which block', async () => {
    const ledger = await connect();
    await ledger.sandboxEdit({ peer: 'C', index: 11, seq: 1, title: 'Rewritten' });
    await ledger.sandboxRemineFrom(
      'remine',
      11,
      'C',
      proxy(() => undefined),
    );
    const { peers } = await ledger.sandboxPeers();
    expect(peers.map(({ peer, differsFrom, status }) => ({ peer, differsFrom, valid: status.valid }))).toEqual([
      { peer: 'A', differsFrom: undefined, valid: true },
      { peer: 'B', differsFrom: undefined, valid: true },
      { peer: 'C', differsFrom: 11, valid: true },
    ]);
  });

  it('refuses an unknown peer and a malformed edit with plain messages', async () => {
    const ledger = await connect();
    expect(await rejectionOf(ledger.sandboxBlock(0, 'Z' as never))).toEqual({
      name: 'ValidationError',
      message: 'Choose peer A, B or C.',
    });
    expect(await rejectionOf(ledger.sandboxEdit({ peer: 'A', index: 0, seq: 1, title: 5 as never }))).toEqual({
      name: 'ValidationError',
      message: 'The new title must be text.',
    });
  });
});

describe('the anchor over a MessageChannel', () => {
  it('is saved as plain data and checked from its JSON text', async () => {
    const ledger = await connect(0);
    await ledger.upload(uploadOf('Report'));
    const anchor = await ledger.saveAnchor();
    expect(anchor).toMatchObject({ height: 2, format: 'medledger-anchor' });
    expect(await ledger.checkAnchor(JSON.stringify(anchor))).toMatchObject({ unchanged: true, addedSince: 0 });
    expect(await rejectionOf(ledger.checkAnchor('not json'))).toEqual({
      name: 'ValidationError',
      message: 'The anchor is not valid JSON.',
    });
  });
});
