import { useCallback, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useChainStatus } from '../../ledger/use-chain-status';
import { useLedger, useLedgerVersion } from '../../ledger/use-ledger';
import { AnchorPanel } from './anchor-panel';
import { BlockTable } from './block-table';
import { PeersTab } from './peers-tab';
import { TamperDemo } from './tamper-demo';
import { VerificationSummary } from './verification-summary';
import './explorer.css';

const TABS = ['chain', 'anchor', 'tamper', 'peers'] as const;
type ExplorerTab = (typeof TABS)[number];
const isTab = (key: string | null): key is ExplorerTab => TABS.includes(key as ExplorerTab);

// The records chain as it is, newest block first, with the verification result and its anchor; the sandbox's
// live chain (tamper demo) and its three peers beside it, or the real devices while this one is connected.
export function ExplorerPage() {
  const service = useLedger();
  // the sandbox tabs start from a fresh copy of the records chain, once per visit: both then show the same peers
  const sandboxReady = useRef<Promise<void> | null>(null);
  const prepareSandbox = useCallback(
    () =>
      (sandboxReady.current ??= service.sandboxReset(0).then(
        () => undefined,
        (error: unknown) => {
          sandboxReady.current = null; // the next tab opened tries again
          throw error;
        },
      )),
    [service],
  );
  const chainVersion = useLedgerVersion(['chain', 'signatures']); // new blocks or checked signatures: the cached pages are dropped
  const status = useChainStatus();
  const [scrollTo, setScrollTo] = useState<{ index: number; request: number } | null>(null);
  const miningLabPath = useLocation().pathname.replace(/\/blockchain$/, '/mining-lab'); // the lab of this role
  const loadBlocks = useCallback((offset: number, limit: number) => service.blocksPage(offset, limit), [service]);
  // the open tab lives in the address, so a reload or a shared link shows the same tab
  const [params, setParams] = useSearchParams();
  const wanted = params.get('tab');
  const tab: ExplorerTab = isTab(wanted) ? wanted : 'chain';
  const selectTab = (key: string | null) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (key && key !== 'chain') next.set('tab', key);
        else next.delete('tab');
        return next;
      },
      { replace: true },
    );
  // the chain both sandbox tabs show: they share one sandbox, so they share its choice
  const [sandboxChain, setSandboxChain] = useState(0);

  return (
    <>
      <h1 className="page-title">Blockchain Explorer</h1>
      <p className="explorer-intro">
        Every change in MedLedger (an upload, a deletion, an emergency access) is a block on this chain. Each block&apos;s hash is
        a fingerprint of its contents and of the block before it, so changing any block breaks every block after it. To see how
        blocks are found, open the <Link to={miningLabPath}>Mining Lab</Link>.
      </p>
      <Tabs activeKey={tab} onSelect={selectTab} id="explorer-tabs" className="mb-3" mountOnEnter>
        <Tab eventKey="chain" title="Records chain">
          {status.error && <Alert variant="danger">Could not read the chain: {status.error.message}</Alert>}
          {status.loading && (
            <Spinner animation="border" role="status">
              <span className="visually-hidden">Loading the chain…</span>
            </Spinner>
          )}
          {status.data && (
            <>
              <VerificationSummary
                status={status.data}
                onShowInvalid={(index) => setScrollTo((previous) => ({ index, request: (previous?.request ?? 0) + 1 }))}
              />
              <p className="small text-body-secondary">
                {status.data.height} {status.data.height === 1 ? 'block' : 'blocks'}, newest first. Each block's hash covers its
                index, time, record and the previous block's hash, and starts with {status.data.difficulty} zeros.
              </p>
              <BlockTable
                caption="Records chain, newest block first"
                total={status.data.height}
                load={loadBlocks}
                generation={chainVersion}
                invalid={status.data.firstInvalid}
                scrollToIndex={scrollTo}
              />
            </>
          )}
        </Tab>
        <Tab eventKey="anchor" title="Anchor">
          <AnchorPanel />
        </Tab>
        <Tab eventKey="tamper" title="Tamper demo" unmountOnExit>
          <TamperDemo prepare={prepareSandbox} chain={sandboxChain} onChainChange={setSandboxChain} />
        </Tab>
        <Tab eventKey="peers" title="Peers" unmountOnExit>
          <PeersTab prepare={prepareSandbox} chain={sandboxChain} onChainChange={setSandboxChain} />
        </Tab>
      </Tabs>
    </>
  );
}
