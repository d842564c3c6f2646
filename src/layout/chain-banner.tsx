import Alert from 'react-bootstrap/Alert';
import { failedCheck } from '../components/chain-integrity';
import { useChainStatus } from '../ledger/use-chain-status';

function verifiedPart(firstBad: number): string {
  if (firstBad === 0) return 'No block verified.';
  return firstBad === 1 ? 'Block #0 verified and can be read.' : `Blocks #0 to #${firstBad - 1} verified and can be read.`;
}

// A stored chain that fails verification is said plainly, with the block and the check, never hidden
// (docs/decisions/chain-verification.md).
export function ChainBanner() {
  const status = useChainStatus();
  const chain = status.data;
  if (!chain || (chain.valid && !chain.readOnly)) return null;
  const bad = chain.firstInvalid;

  return (
    <Alert variant="danger" className="chain-banner" role="status" aria-labelledby="chain-banner-title">
      <h2 className="h6 mb-1 fw-bold" id="chain-banner-title">
        The stored chain failed verification: MedLedger is read-only
      </h2>
      <p className="mb-1">Some stored data was changed outside MedLedger, so it can no longer be trusted.</p>
      <p className="mb-0">
        {bad ? (
          <>
            {failedCheck(bad)}. {verifiedPart(bad.index)}{' '}
          </>
        ) : null}
        Uploads, deletions and emergency access are turned off. Reset the demo data to start over.
      </p>
    </Alert>
  );
}
