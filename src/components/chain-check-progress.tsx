import type { ChainStatus } from '../../workers/api';
import { chainVerdict, checkingHashes } from './chain-integrity';
import { formatNumber } from './format';

type Checked = Pick<ChainStatus, 'valid' | 'height' | 'hashesChecked' | 'signaturesChecked' | 'signaturesToCheck' | 'lastCheck'>;

// A long chain is shown before every check is done: its hashes and links are checked first, then its signatures.
export function chainChecking(status: Checked): boolean {
  return checkingHashes(status) || status.signaturesChecked < status.signaturesToCheck;
}

// How far the checks behind the screens got.
export function ChainCheckProgress({ status }: { status: Checked }) {
  if (status.lastCheck) {
    return (
      <span className="chain-check-progress" role="status" data-last-check="true">
        Reading the {formatNumber(status.height)} stored blocks to check them again: shown meanwhile as this device last checked
        them
      </span>
    );
  }
  const hashes = checkingHashes(status);
  const [checked, total] = hashes ? [status.hashesChecked, status.height] : [status.signaturesChecked, status.signaturesToCheck];
  return (
    <span className="chain-check-progress" role="status">
      Checking {hashes ? 'hashes and links' : 'signatures'}: {formatNumber(checked)} of {formatNumber(total)} (
      {Math.floor((checked / Math.max(1, total)) * 100)}%)
    </span>
  );
}

// The chain's verdict as a description list's value: Valid, Invalid, or Checking while a long chain's hashes are.
export function ChainVerdictValue({ status, className = '' }: { status: ChainStatus; className?: string }) {
  const { text, tone } = chainVerdict(status);
  return <dd className={`${tone} ${className}`.trim()}>{text}</dd>;
}
