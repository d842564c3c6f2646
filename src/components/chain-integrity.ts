import type { ChainStatus, InvalidBlock } from '../../workers/api';

// Share of blocks before the first bad one: 100% when the verification passes.
export function chainIntegrity(status: ChainStatus): string {
  if (status.valid) return '100%';
  const good = status.firstInvalid ? status.firstInvalid.index : 0;
  return `${Math.floor((good / Math.max(1, status.height)) * 100)}%`;
}

// What failed: a block, or a stored item beside the chain (a file's key or bytes no block names).
export function failedCheck(invalid: InvalidBlock): string {
  return `${invalid.item ? `Stored ${invalid.item}` : `Block #${invalid.index}`} failed a check: ${invalid.reason}`;
}
