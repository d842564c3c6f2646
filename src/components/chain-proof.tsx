import { HashBadge } from './hash-badge';

interface ChainProofProps {
  blockIndex: number;
  hash: string;
}

// The technical proof (block number, hash) folded behind plain words: patients read "Verified on the chain".
export function ChainProof({ blockIndex, hash }: ChainProofProps) {
  return (
    <details className="chain-proof">
      <summary>Verified on the chain</summary>
      <span className="chain-proof-body">
        <span>Block #{blockIndex}</span>
        <HashBadge hash={hash} label="block hash" />
      </span>
    </details>
  );
}
