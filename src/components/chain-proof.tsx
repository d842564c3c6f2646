import { HashBadge } from './hash-badge';

interface ChainProofProps {
  blockIndex: number;
  hash: string;
  checking?: boolean; // the chain's checks are still running (a long ledger's load): not called verified yet
}

// The technical proof (block number, hash) folded behind plain words: patients read "Verified on the chain".
export function ChainProof({ blockIndex, hash, checking = false }: ChainProofProps) {
  return (
    <details className="chain-proof">
      <summary>{checking ? 'On the chain, being checked' : 'Verified on the chain'}</summary>
      <span className="chain-proof-body">
        <span>Block #{blockIndex}</span>
        <HashBadge hash={hash} label="block hash" />
      </span>
    </details>
  );
}
