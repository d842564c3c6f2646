// Second hardening pass, over a real MessageChannel as the UI calls the worker: jobs stop with the session,
// the latest sandbox reset wins, a clock moved back does not hide emergency reads, and a basic grant sends
// nothing of the files.
import { afterEach, describe, expect, it } from 'vitest';
import { proxy } from 'comlink';
import type { MiningProgress } from '../../workers/api';
import { connectLedger, type ConnectedLedger } from '../support/ledger-over-channel';
import { MICHAEL, SARAH, WILSON, createClock, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';

let open: ConnectedLedger[] = [];
afterEach(() => {
  open.forEach((ledger) => ledger.close());
  open = [];
});

function connected(...args: Parameters<typeof connectLedger>) {
  const ledger = connectLedger(...args);
  open.push(ledger);
  return ledger;
}

describe('signing out', () => {
  it('cancels a running mining job and drops the sandbox, so the next user can mine at once', async () => {
    const { proxy: ledger } = connected();
    await signInAs(ledger, SARAH);
    let started: () => void = () => undefined;
    const reported = new Promise<void>((resolve) => (started = resolve));
    const job = ledger.mineSandbox(
      'long',
      6,
      100,
      proxy((_progress: MiningProgress) => started()),
    );
    await reported;
    await ledger.signOut();
    expect(await job).toMatchObject({ jobId: 'long', cancelled: true });
    expect(await ledger.cancelJob('long')).toBe(false); // already stopped; asked without a session

    await signInAs(ledger, MICHAEL);
    expect(
      await ledger.mineSandbox(
        'next',
        1,
        1,
        proxy(() => undefined),
      ),
    ).toMatchObject({ cancelled: false, blocksMined: 1 });
    expect((await ledger.sandboxPage(0, 1)).total).toBe(2); // a fresh copy of the real chain, plus the mined block
  });
});

describe('sandbox resets', () => {
  it('answer with the latest request when an older, slower one finishes after it', async () => {
    const { proxy: ledger } = connected();
    await signInAs(ledger, SARAH);
    const older = ledger.sandboxReset(2000);
    const newer = ledger.sandboxReset(3);
    expect((await newer).total).toBe(3);
    expect((await older).total).toBe(3);
    expect((await ledger.sandboxPage(0, 10)).total).toBe(3);
  });
});

describe('emergency reads with the device clock moved back', () => {
  it('logs every read, since a read is a repeat only 0 to 60 s after the last one', async () => {
    const clock = createClock();
    const { proxy: ledger } = connected({ now: clock.now });
    await signInAs(ledger, WILSON);
    const grant = await ledger.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'ER',
      accessLevel: 'basic',
      durationMinutes: 60,
    });
    for (let i = 0; i < 9; i++) {
      await ledger.emergencyView(grant.id);
      clock.advance(-60_000); // the clock goes back a minute between reads
    }
    await signInAs(ledger, SARAH);
    const [entry] = await ledger.accessHistory();
    expect(entry.reads).toHaveLength(9);
    expect(await ledger.chainStatus()).toMatchObject({ valid: true });
  });
});

describe('a basic grant', () => {
  it('sends no file name, content id or document id of the records it shows, only how many files each has', async () => {
    const { proxy: ledger } = connected();
    await signInAs(ledger, SARAH);
    await ledger.upload(uploadOf('Confidential result', [fileInput('hiv-test-positive.pdf', 'result'), fileInput('letter.pdf')]));
    await signInAs(ledger, WILSON);
    const grant = await ledger.requestEmergencyAccess({
      patientId: SARAH.id,
      reason: 'ER',
      accessLevel: 'basic',
      durationMinutes: 15,
    });
    const view = await ledger.emergencyView(grant.id);
    const raw = JSON.stringify(view);
    expect(raw).not.toContain('hiv-test-positive');
    expect(raw).not.toContain('ipfs://');
    expect(raw).not.toMatch(/Qm[1-9A-HJ-NP-Za-km-z]{44}/);
    const record = view.records.find((r) => r.title === 'Confidential result')!;
    expect(record).toMatchObject({ fileName: '', fileUrl: '', documentIds: [], documents: [], fileCount: 2 });
  });
});
