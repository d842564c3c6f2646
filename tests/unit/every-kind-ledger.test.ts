// Blocks already written stay valid: a ledger of every record kind, written by MedLedger before record kinds moved to
// one module each (tests/support/kind-fixture.ts), verifies, projects and opens exactly as it did then.
import { describe, expect, it } from 'vitest';
import { DIFFICULTY } from '../../workers/core/constants';
import { LOINC_OF_TYPE } from '../../workers/core/fhir-export';
import { verifyLedger } from '../../workers/core/projection';
import type { Block } from '../../workers/core/types';
import { createLedgerBackend } from '../../workers/service';
import fixture from './fixtures/every-kind-ledger.json';
import { fromJson, stateJson, storageOf, viewsOf } from '../support/kind-fixture';
import { createClock } from '../support/ledger-fixtures';
import { testDeps } from '../support/test-ledger';

const blocks = (fromJson(fixture.storage) as { blocks: Block[] }).blocks;
const eventOf = (block: Block) =>
  'emergency' in block.data ? block.data.emergency.event : 'share' in block.data ? block.data.share.event : '';

describe('a ledger of every kind written before kinds had modules', () => {
  it('holds every kind and event: uploads in clear and sealed, re-sealing, deletion, grants, shares, consent, acknowledgement', () => {
    expect(new Set(blocks.map((block) => `${block.data.type}:${eventOf(block)}`))).toEqual(
      new Set([
        'diagnosis:',
        'test_report:',
        'prescription:',
        'resealed:',
        'document_deleted:',
        'access_shared:shared',
        'access_shared:read',
        'access_shared:revoked',
        'emergency_access:granted',
        'emergency_access:read',
        'emergency_access:ended',
        'emergency_access:expired',
        'care_consent:',
        'access_acknowledged:',
      ]),
    );
  });

  it('verifies to the same projection as when it was written', () => {
    const verified = verifyLedger(blocks, DIFFICULTY);
    expect(verified.firstInvalid).toBeUndefined();
    expect(stateJson(verified.state)).toEqual(fixture.state);
  });

  it('opens from storage to the same screens for every user', async () => {
    const clock = createClock(fixture.now);
    const { service } = createLedgerBackend(testDeps({ storage: await storageOf(fixture.storage), now: clock.now }));
    expect(await viewsOf(service)).toEqual(fixture.views);
  });
});

describe('the FHIR mapping of the kinds that export as documents', () => {
  it('gives each clinical type the LOINC document type it had before the kinds had modules', () => {
    expect(LOINC_OF_TYPE).toEqual({
      prescription: { system: 'http://loinc.org', code: '57833-6', display: 'Prescription for medication' },
      test_report: { system: 'http://loinc.org', code: '11502-2', display: 'Laboratory report' },
      diagnosis: { system: 'http://loinc.org', code: '29548-5', display: 'Diagnosis Narrative' },
    });
  });
});
