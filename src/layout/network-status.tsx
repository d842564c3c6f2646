import { ChainCheckProgress, ChainVerdictValue, chainChecking } from '../components/chain-check-progress';
import { syncBrief } from '../components/sync-words';
import { useChainStatus } from '../ledger/use-chain-status';
import { useSyncStatus } from '../ledger/use-sync-status';

export function NetworkStatus() {
  const status = useChainStatus();
  const chain = status.data;
  const sync = useSyncStatus().data;

  return (
    <section className="network-status" aria-label="Network status">
      <div className="network-status-head">
        <span className="pulse-dot" aria-hidden="true" />
        Network Active
        {/* where the records live: this browser alone, or with the sync server and the ledger's other devices */}
        <span className="network-status-scope" data-sync-state={sync?.state}>
          {sync ? syncBrief(sync) : 'Checking the link...'}
        </span>
      </div>
      {chain ? (
        <dl className="network-status-body">
          <div>
            <dt>Blocks</dt>
            <dd>{chain.height}</dd>
          </div>
          <div>
            <dt>Chain</dt>
            <ChainVerdictValue status={chain} />
          </div>
        </dl>
      ) : null}
      {chain?.readOnly ? <p className="network-status-note">Read-only: the stored chain failed verification.</p> : null}
      {chain && !chain.readOnly && chainChecking(chain) ? (
        <p className="network-status-note">
          <ChainCheckProgress status={chain} />
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
