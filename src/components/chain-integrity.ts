import type { ChainStatus, InvalidBlock } from '../../workers/api';

// A long chain is shown before its hashes and links are checked: until they are, it is neither valid nor invalid.
export function checkingHashes(status: Pick<ChainStatus, 'valid' | 'height' | 'hashesChecked'>): boolean {
  return status.valid && status.hashesChecked < status.height;
}

export function chainVerdict(status: ChainStatus): { text: 'Valid' | 'Invalid' | 'Checking'; tone: string } {
  if (checkingHashes(status)) return { text: 'Checking', tone: 'text-body-secondary' };
  return status.valid ? { text: 'Valid', tone: 'text-success' } : { text: 'Invalid', tone: 'text-danger' };
}

// Share of blocks before the first bad one: 100% when the verification passes; how far the check got meanwhile.
export function chainIntegrity(status: ChainStatus): string {
  if (checkingHashes(status)) return `checking, ${Math.floor((status.hashesChecked / status.height) * 100)}%`;
  if (status.valid) return '100%';
  const good = status.firstInvalid ? status.firstInvalid.index : 0;
  return `${Math.floor((good / Math.max(1, status.height)) * 100)}%`;
}

// What failed: a block, or a stored item beside the chain (a file's key or bytes no block names).
export function failedCheck(invalid: InvalidBlock): string {
  return `${invalid.item ? `Stored ${invalid.item}` : `Block #${invalid.index}`} failed a check: ${invalid.reason}`;
}
