import Alert from 'react-bootstrap/Alert';
import { useChainStatus } from '../ledger/use-chain-status';

// A browser an earlier MedLedger gave a ledger of its own is told what to do to meet the demo ledger every other
// browser holds, without losing what it holds (docs/decisions/one-demo-ledger.md).
export function OwnLedgerBanner() {
  const chain = useChainStatus().data;
  if (!chain?.ownLedger) return null;
  return (
    <Alert variant="warning" className="own-ledger-banner" role="status" aria-labelledby="own-ledger-banner-title">
      <h2 className="h6 mb-1 fw-bold" id="own-ledger-banner-title">
        This browser holds a ledger of its own
      </h2>
      <p className="mb-1">
        An earlier MedLedger made it for this browser alone, so other devices, the sync server and backups from other browsers
        cannot join it. Everything in it still works here.
      </p>
      <p className="mb-0">
        To join the demo ledger every browser holds without losing anything: a patient chooses Back up this whole browser (Medical
        Records) and keeps the file, then Reset demo data. The backup holds every record and file of this ledger; restoring it in
        a new browser brings this ledger back.
      </p>
    </Alert>
  );
}
