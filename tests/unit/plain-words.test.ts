// Words a user reads come out right for one of a thing, and searches find what the record shows.
import { describe, expect, it } from 'vitest';
import { parseAnchor } from '../../workers/core/anchor';
import { SARAH, errorOf, fileInput, signInAs, uploadOf } from '../support/ledger-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

describe('counted words', () => {
  it('say "block" for an anchor of one block', async () => {
    const anchor = {
      format: 'medledger-anchor',
      version: 1,
      savedAt: '2026-03-02T10:00:00.000Z',
      height: 1,
      tipHash: `00${'a'.repeat(54)}12345678`,
      fingerprints: '',
    };
    const { message } = await errorOf(Promise.resolve().then(() => parseAnchor(JSON.stringify(anchor))));
    expect(message).toBe('The anchor\'s "fingerprints" must be 8 lower-case hexadecimal digits for its 1 block.');
  });
});

describe('records search', () => {
  it("finds a record by one of its files' names", async () => {
    const service = createTestLedgerService();
    await signInAs(service, SARAH);
    await service.upload(uploadOf('Imaging', [fileInput('chest-xray.png')]));
    await service.upload(uploadOf('Bloods', [fileInput('cbc.pdf')]));
    expect((await service.listRecords(SARAH.id, { search: 'XRAY' })).records.map((r) => r.title)).toEqual(['Imaging']);
  });
});
