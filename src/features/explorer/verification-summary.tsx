import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { ChainStatus } from '../../../workers/api';
import { ChainCheckProgress } from '../../components/chain-check-progress';
import { checkingHashes } from '../../components/chain-integrity';

interface VerificationSummaryProps {
  status: ChainStatus;
  onShowInvalid?: (index: number) => void;
  unsigned?: boolean; // the chain holds unsigned demo blocks: there are no signatures to speak of
}

// The verification result: valid, or the first invalid block and the check it failed (docs/decisions/chain-verification.md).
export function VerificationSummary({ status, onShowInvalid, unsigned = false }: VerificationSummaryProps) {
  const blocks = `${status.height} ${status.height === 1 ? 'block' : 'blocks'}`;
  if (checkingHashes(status)) {
    return (
      <Alert variant="info" className="mb-3" data-chain-valid="checking">
        <strong>Checking the chain.</strong> Its records are shown while every hash and link of its {blocks} is checked; nothing
        is written before that is done. <ChainCheckProgress status={status} />
      </Alert>
    );
  }
  if (status.valid || !status.firstInvalid) {
    const checking = status.signaturesChecked < status.signaturesToCheck;
    return (
      <Alert variant="success" className="mb-3" data-chain-valid="true">
        <strong>Chain valid.</strong> All {blocks} verified: every hash, link and record matches, at difficulty{' '}
        {status.difficulty}.{' '}
        {unsigned ? (
          'These are unsigned demo blocks: hashes and links are checked, there are no signatures.'
        ) : checking ? (
          <ChainCheckProgress status={status} />
        ) : (
          'Every block is signed by its author, checked against the keys the genesis block enrolled.'
        )}
      </Alert>
    );
  }
  const { index, reason } = status.firstInvalid;
  return (
    <Alert variant="danger" className="mb-3 d-flex flex-wrap align-items-center gap-2" data-chain-valid="false">
      <span className="me-auto">
        <strong>Chain invalid at block #{index}:</strong> {reason}.
      </span>
      {onShowInvalid && (
        <Button variant="danger" size="sm" onClick={() => onShowInvalid(index)}>
          Show block #{index}
        </Button>
      )}
    </Alert>
  );
}
