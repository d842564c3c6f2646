import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChainStatus } from '../../workers/api';
import { chainIntegrity, chainVerdict } from '../../src/components/chain-integrity';
import { VerificationSummary } from '../../src/features/explorer/verification-summary';
import { ChainProof } from '../../src/components/chain-proof';

const status = (checks: Partial<ChainStatus>): ChainStatus => ({
  height: 100_000,
  valid: true,
  difficulty: 2,
  lastBlockTime: '2026-03-02T10:00:00.000Z',
  readOnly: false,
  signaturesChecked: 500,
  signaturesToCheck: 100_000,
  hashesChecked: 100_000,
  ...checks,
});

describe('a long chain shown before every check is done', () => {
  it('is not called valid while its hashes and links are checked', () => {
    render(<VerificationSummary status={status({ hashesChecked: 25_000 })} />);
    expect(screen.getByText('Checking the chain.')).toBeInTheDocument();
    expect(screen.queryByText('Chain valid.')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Checking hashes and links: 25,000 of 100,000 (25%)');
  });

  it('is neither valid nor invalid on the dashboards until they hold', () => {
    expect(chainVerdict(status({ hashesChecked: 25_000 })).text).toBe('Checking');
    expect(chainIntegrity(status({ hashesChecked: 25_000 }))).toBe('checking, 25%');
    expect(chainVerdict(status({})).text).toBe('Valid');
    expect(chainIntegrity(status({}))).toBe('100%');
    const failed = status({ valid: false, hashesChecked: 100_000, firstInvalid: { index: 40_000, reason: 'x' } });
    expect([chainVerdict(failed).text, chainIntegrity(failed)]).toEqual(['Invalid', '40%']);
  });

  it('is valid once they hold, and says how far its signatures got', () => {
    render(<VerificationSummary status={status({})} />);
    expect(screen.getByText('Chain valid.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Checking signatures: 500 of 100,000 (0%)');
  });

  it("is Checking, and says the blocks are being read, while a long ledger's kept first screen is shown", () => {
    const kept = status({ lastCheck: true, hashesChecked: 0, signaturesChecked: 0 });
    expect(chainVerdict(kept).text).toBe('Checking');
    render(<VerificationSummary status={kept} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Reading the 100,000 stored blocks to check them again: shown meanwhile as this device last checked them',
    );
  });

  it("calls a record verified on the chain only once the chain's checks are done", () => {
    const hash = 'ab'.repeat(32);
    const { rerender } = render(<ChainProof blockIndex={7} hash={hash} checking />);
    expect(screen.getByText('On the chain, being checked')).toBeInTheDocument();
    expect(screen.queryByText('Verified on the chain')).not.toBeInTheDocument();
    rerender(<ChainProof blockIndex={7} hash={hash} />);
    expect(screen.getByText('Verified on the chain')).toBeInTheDocument();
  });
});
