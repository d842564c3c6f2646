// A kind's fields are sealed unless its module lists them as clear (workers/core/records/): a field added to the upload
// kind, and to nothing else, is written sealed; listed as clear in the module, it is written in clear.
import { describe, expect, it } from 'vitest';
import { createGenesisBlock, mineBlock } from '../../workers/core/chain';
import { bytesToHex } from '../../workers/core/ids';
import { genesisRecord } from '../../workers/core/ledger-records';
import { GRANT_DETAILS } from '../../workers/core/records/emergency';
import { clearTextIn, optional, splitSealed, text } from '../../workers/core/records/shape';
import { SHARE_DETAILS } from '../../workers/core/records/share';
import { UPLOAD, type UploadKind } from '../../workers/core/records/upload';
import { createSummaryKey, openClinicalRecord, sealClinicalRecord, sealedUploadProblem } from '../../workers/core/sealed-fields';
import type { ClinicalRecord } from '../../workers/core/types';
import { CARTER, SARAH } from '../support/ledger-fixtures';

const CLINIC = 'Northside Sexual Health Clinic';
const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';

// The fixture module: the upload kind with one optional field more, and nothing else edited.
const WITH_CLINIC: UploadKind = { ...UPLOAD, shape: { ...UPLOAD.shape, clinicName: optional(text) } };
const CLINIC_IN_CLEAR: UploadKind = { ...WITH_CLINIC, clear: { ...WITH_CLINIC.clear, clinicName: 'a test says so' } };

const upload = (): ClinicalRecord & { clinicName: string } => ({
  id: 'record-1',
  patientId: SARAH.id,
  doctorId: CARTER.id,
  type: 'test_report',
  title: 'HIV test, positive',
  description: 'Viral load 12,400 copies/mL',
  timestamp: '2026-03-02T10:00:00.000Z',
  files: [{ documentId: 'doc-1', name: 'viral-load.pdf', type: 'application/pdf', size: 48_213, cid: CID }],
  clinicName: CLINIC,
});

async function written(kind: UploadKind) {
  const summary = await createSummaryKey(SARAH.id);
  const documentKeys = new Map([['doc-1', bytesToHex(crypto.getRandomValues(new Uint8Array(32)))]]);
  const sealed = await sealClinicalRecord(upload(), summary, documentKeys, kind);
  const genesis = createGenesisBlock(
    genesisRecord('genesis', '2026-03-01T00:00:00.000Z', { algorithm: 'Ed25519', ledger: '', users: {} }),
    '2026-03-01T00:00:00.000Z',
  );
  const block = mineBlock(genesis, sealed, sealed.timestamp);
  const opened = await openClinicalRecord(sealed, new Map([[summary.epochId, summary.key]]), documentKeys, kind);
  return { block, sealed, opened, epochs: new Set([summary.epochId]) };
}

describe('a field added to the upload kind', () => {
  it('is sealed in the written block with no other edit, and opens with the summary key', async () => {
    const { block, sealed, opened, epochs } = await written(WITH_CLINIC);
    expect(JSON.stringify(block)).not.toContain(CLINIC);
    expect(block.data).not.toHaveProperty('clinicName');
    expect(opened?.record).toMatchObject({ clinicName: CLINIC, title: 'HIV test, positive' });
    expect(sealedUploadProblem(sealed, epochs, WITH_CLINIC)).toBeNull();
    // the field in clear beside a sealed part, as the old sealing wrote a field it did not name: refused
    expect(sealedUploadProblem({ ...sealed, clinicName: CLINIC } as typeof sealed, epochs, WITH_CLINIC)).toBe(
      'an upload after sealing holds text in clear',
    );
  });

  it('is in clear only once its module lists it as clear, and the rest stays sealed', async () => {
    const { block, sealed, opened, epochs } = await written(CLINIC_IN_CLEAR);
    expect(block.data).toMatchObject({ clinicName: CLINIC, title: '', description: '' });
    expect(JSON.stringify(block)).not.toContain('HIV test');
    expect(JSON.stringify(block)).not.toContain('viral-load.pdf');
    expect(opened?.record).toMatchObject({ clinicName: CLINIC, title: 'HIV test, positive' });
    expect(sealedUploadProblem(sealed, epochs, CLINIC_IN_CLEAR)).toBeNull();
  });

  it('is sealed by the upload kind as shipped too: no list of sealed fields to keep up', async () => {
    const { block } = await written(UPLOAD);
    expect(JSON.stringify(block)).not.toContain(CLINIC);
  });
});

describe("a field added to a grant's or a share's details", () => {
  it('is sealed with the reason or the note, to the patient and the doctor, and refused beside them in clear', () => {
    for (const [kind, details, field] of [
      [
        GRANT_DETAILS,
        { grantId: 'g1', event: 'granted', accessLevel: 'full', reason: 'Unconscious', durationMinutes: 30 },
        'reason',
      ],
      [
        SHARE_DETAILS,
        { shareId: 's1', event: 'shared', accessLevel: 'full', durationDays: 0, expiresAt: '', note: 'Follow-up' },
        'note',
      ],
    ] as const) {
      const withWard = { ...kind, shape: { ...kind.shape, ward: optional(text) } };
      const { clear, sealed } = splitSealed(withWard, { ...details, ward: 'ICU 3' });
      expect(sealed).toEqual({ [field]: details[field as keyof typeof details], ward: 'ICU 3' });
      expect(clear).toEqual({ ...details, [field]: '' });
      expect(clearTextIn(withWard, clear)).toBe(false);
      expect(clearTextIn(withWard, { ...clear, ward: 'ICU 3' })).toBe(true);
      const listed = { ...withWard, clear: { ...withWard.clear, ward: 'a test says so' } };
      expect(splitSealed(listed, { ...details, ward: 'ICU 3' }).clear).toMatchObject({ ward: 'ICU 3', [field]: '' });
    }
  });
});
