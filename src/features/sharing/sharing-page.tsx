import { useState } from 'react';
import { ShareForm } from './share-form';
import { ShareList } from './share-list';
import './sharing.css';

// The patient shares their records with a listed doctor for a while and revokes it; each read is on the chain.
export function SharingPage() {
  const [revokedIds, setRevokedIds] = useState<ReadonlySet<string>>(new Set()); // a share's "Shared with" notice goes with it
  return (
    <>
      <div className="page-header">
        <h1 className="page-title">Sharing</h1>
        <p className="page-subtitle">Let a doctor read your records for a set time. You can revoke a share at any moment.</p>
      </div>
      <ShareForm revokedIds={revokedIds} />
      <ShareList onRevoked={(entry) => setRevokedIds((ids) => new Set(ids).add(entry.share.id))} />
    </>
  );
}
