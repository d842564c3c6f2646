import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { SHORT_HASH_LENGTH } from '../../workers/core/constants';
import { Icon } from './icon';

const COPIED_MS = 2000; // how long the button says "Copied"

// The first 8 hex digits (docs/decisions/sha256-chain.md); the full hash in the tooltip and on the clipboard.
export function HashBadge({ hash, label = 'hash' }: { hash: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const short = hash.slice(0, SHORT_HASH_LENGTH);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hash);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <span className="hash-badge">
      <code title={hash} aria-label={`${label} ${short}`}>
        {short}
      </code>
      <Button
        variant="link"
        size="sm"
        className="hash-copy"
        onClick={() => void copy()}
        aria-label={`Copy full ${label}`}
        title={`Copy full ${label}`}
      >
        <Icon name={copied === 'yes' ? 'check' : 'copy'} size={14} />
      </Button>
      <span className="visually-hidden" role="status">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed' : ''}
      </span>
    </span>
  );
}
