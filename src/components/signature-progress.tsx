import type { ChainStatus } from '../../workers/api';

// Signatures of a long chain are checked after its hashes, while the screens already show it: how far that got.
export function SignatureProgress({ status }: { status: Pick<ChainStatus, 'signaturesChecked' | 'signaturesToCheck'> }) {
  const { signaturesChecked: checked, signaturesToCheck: total } = status;
  return (
    <span className="signature-progress" role="status">
      Checking signatures: {checked.toLocaleString('en-US')} of {total.toLocaleString('en-US')} (
      {Math.floor((checked / Math.max(1, total)) * 100)}%)
    </span>
  );
}
