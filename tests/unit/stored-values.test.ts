// Verification never throws on stored data: a stored value that would break a date, number or string
// operation names its block, and the app still signs in and resets.
import { describe, expect, it } from 'vitest';
import { DIFFICULTY } from '../../workers/core/constants';
import { verifyLedger } from '../../workers/core/projection';
import type { ChainRecord } from '../../workers/core/types';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { reforge } from '../support/forged-blocks';
import { SARAH, WILSON, createClock, signInAs, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

const LAST_DATE_MS = 8.64e15; // the largest time a Date holds

// Sarah's upload, then Dr. Wilson's 15-minute grant on her records: the tip.
async function grantAtTip() {
  const clock = createClock();
  const storage = createMemoryStorage();
  const service = createTestLedgerService({ storage, now: clock.now });
  await signInAs(service, SARAH);
  await service.upload(uploadOf('Scans'));
  await signInAs(service, WILSON);
  await service.requestEmergencyAccess({ patientId: SARAH.id, reason: 'ER', accessLevel: 'basic', durationMinutes: 15 });
  return { storage, clock, tip: (await storage.load()).blocks.length - 1 };
}

// The record at time `time`, its grant's expiry at the same time (a forger sets both).
function at(time: string) {
  return (record: ChainRecord) => ({ ...record, timestamp: time, emergencyAccessExpiry: time }) as ChainRecord;
}

describe('a stored grant whose time is near the largest date', () => {
  const nearLast = new Date(LAST_DATE_MS - 60_000).toISOString(); // +275760-09-12T23:59:00.000Z

  it('is named as an invalid block by verification, which does not throw', async () => {
    const { storage, tip } = await grantAtTip();
    const blocks = await reforge(storage, tip, at(nearLast));
    const verified = verifyLedger(blocks, DIFFICULTY);
    expect(verified.firstInvalid).toEqual({ index: tip, reason: 'record is malformed (it has a malformed "timestamp")' });
    expect(verified.state.height).toBe(tip);
  });

  it('leaves sign-in working with the block named, and Reset gives a valid ledger again', async () => {
    const { storage, clock, tip } = await grantAtTip();
    await reforge(storage, tip, at(nearLast));
    const service = createTestLedgerService({ storage, now: clock.now });
    await signInAs(service, SARAH);
    expect(await service.chainStatus()).toMatchObject({
      valid: false,
      readOnly: true,
      firstInvalid: { index: tip, reason: 'record is malformed (it has a malformed "timestamp")' },
    });
    await service.resetDemoData();
    expect(await service.chainStatus()).toMatchObject({ valid: true, height: 1 });
  });
});
