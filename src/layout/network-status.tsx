import { SignatureProgress } from '../components/signature-progress';
import { useChainStatus } from '../ledger/use-chain-status';

export function NetworkStatus() {
  const status = useChainStatus();
  const chain = status.data;

  return (
    <section className="network-status" aria-label="Network status">
      <div className="network-status-head">
        <span className="pulse-dot" aria-hidden="true" />
        Network Active
        {/* the ledger lives in this browser alone: no device or server shares it */}
        <span className="network-status-scope">This device only</span>
      </div>
      {chain ? (
        <dl className="network-status-body">
          <div>
            <dt>Blocks</dt>
            <dd>{chain.height}</dd>
          </div>
          <div>
            <dt>Chain</dt>
            <dd className={chain.valid ? 'text-success' : 'text-danger'}>{chain.valid ? 'Valid' : 'Invalid'}</dd>
          </div>
        </dl>
      ) : null}
      {chain?.readOnly ? <p className="network-status-note">Read-only: the stored chain failed verification.</p> : null}
      {chain && !chain.readOnly && chain.signaturesChecked < chain.signaturesToCheck ? (
        <p className="network-status-note">
          <SignatureProgress status={chain} />
        </p>
      ) : null}
      {chain ? null : (
        <div className="network-status-body text-body-secondary small">
          {status.error ? 'Status unavailable' : 'Connecting...'}
        </div>
      )}
    </section>
  );
}
