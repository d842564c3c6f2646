import type { ChainStatus } from '../../workers/api';
import { formatNumber } from './format';

// Signatures of a long chain are checked after its hashes, while the screens already show it: how far that got.
export function SignatureProgress({ status }: { status: Pick<ChainStatus, 'signaturesChecked' | 'signaturesToCheck'> }) {
  const { signaturesChecked: checked, signaturesToCheck: total } = status;
  return (
    <span className="signature-progress" role="status">
      Checking signatures: {formatNumber(checked)} of {formatNumber(total)} ({Math.floor((checked / Math.max(1, total)) * 100)}%)
    </span>
  );
}
