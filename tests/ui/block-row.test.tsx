// A block row of the explorer says where branches from different devices joined and which block was kept but not applied.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReadableBlockSummary } from '../../workers/api';
import { BlockRow } from '../../src/features/explorer/block-row';

const row: ReadableBlockSummary = {
  index: 7,
  hash: 'a'.repeat(64),
  previousHash: 'b'.repeat(64),
  timestamp: '2026-03-02T10:00:00.000Z',
  nonce: 12,
  type: 'access_shared',
  title: 'Records read',
  patientId: 'patient-1',
  author: 'doctor-2',
  signature: 'holds',
};

function rowOf(block: ReadableBlockSummary) {
  render(
    <table>
      <tbody>
        <BlockRow position={0} block={block} />
      </tbody>
    </table>,
  );
  return within(screen.getByRole('row'));
}

describe('a block row', () => {
  it('names a block that joins branches, with how many', () => {
    const cells = rowOf({ ...row, joins: 2 });
    expect(cells.getByText('joins 2')).toHaveAttribute('title', 'Joins 2 branches written on different devices');
    expect(cells.queryByText(/not applied/)).toBeNull();
  });

  it('marks a block kept but not applied, with the rule it broke for screen readers too', () => {
    const cells = rowOf({ ...row, notApplied: 'read names share s1, which was revoked' });
    const badge = cells.getByText(/not applied/);
    expect(badge).toHaveTextContent('not applied: read names share s1, which was revoked');
    expect(cells.queryByText(/joins/)).toBeNull();
  });
});
