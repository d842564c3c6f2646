import { useCallback, useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { SideScrollBox } from '../../components/side-scroll-box';
import type { PeerName, PeerReport, PeersReport } from '../../../workers/api';
import { SANDBOX_PEERS } from '../../../workers/core/constants';
import { HashBadge } from '../../components/hash-badge';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { LiveChain, type LiveChainProps } from './live-chain';
import { formatNumber } from '../../components/format';

// What the three copies say together: all agree, or which one disagrees and from which block.
function verdict(report: PeersReport): { variant: 'success' | 'danger'; text: string } {
  const { peers, noMajorityFrom } = report;
  if (noMajorityFrom !== undefined) {
    return {
      variant: 'danger',
      text: `No two peers agree from block #${noMajorityFrom}: there is no majority to trust from there.`,
    };
  }
  const odd = peers.filter((peer) => peer.differsFrom !== undefined);
  if (odd.length === 0) {
    const [first] = peers;
    return {
      variant: 'success',
      text: `All three peers agree: ${formatNumber(first.status.height)} ${first.status.height === 1 ? 'block' : 'blocks'} with the same tip hash.`,
    };
  }
  const sentences = odd.map((peer) => {
    const own = peer.status.valid
      ? 'Its copy verifies by itself, but the other two hold a different block there.'
      : `Its copy is also invalid by itself, at block #${peer.status.firstInvalid?.index ?? 0}.`;
    return `Peer ${peer.peer} disagrees with the other two from block #${peer.differsFrom ?? 0}. ${own}`;
  });
  return { variant: 'danger', text: sentences.join(' ') };
}

function agreement(peer: PeerReport, report: PeersReport): string {
  if (peer.differsFrom === undefined) return 'Agrees';
  return report.noMajorityFrom === peer.differsFrom
    ? `No majority from #${peer.differsFrom}`
    : `Differs from #${peer.differsFrom}`;
}

// Three peers keep a copy of the sandbox chain each. Rewrite one (edit, then re-mine to the tip) and a demo copy
// verifies on its own, yet its tip no longer matches the others': the majority names the copy and the block.
export function PeersPanel({ prepare, chain, onChainChange }: Pick<LiveChainProps, 'prepare' | 'chain' | 'onChainChange'>) {
  const service = useLedger();
  const id = useId();
  const [report, setReport] = useState<PeersReport | null>(null);
  const [error, setError] = useState('');
  const [peer, setPeer] = useState<PeerName>('B');
  const asking = useRef<'idle' | 'busy' | 'again'>('idle');

  // one comparison at a time; changes made meanwhile ask for one more afterwards
  const refresh = useCallback(async () => {
    if (asking.current !== 'idle') {
      asking.current = 'again';
      return;
    }
    asking.current = 'busy';
    try {
      do {
        asking.current = 'busy';
        setReport(await service.sandboxPeers());
        setError('');
      } while ((asking.current as string) === 'again');
    } catch (caught) {
      setError(userMessage(caught, 'The peers could not be compared.'));
    } finally {
      asking.current = 'idle';
    }
  }, [service]);

  useEffect(() => {
    prepare().then(refresh, (caught: unknown) => setError(userMessage(caught, 'The sandbox could not be prepared.')));
  }, [prepare, refresh]);

  const onChanged = useCallback(() => void refresh(), [refresh]);
  const shown = report && verdict(report);

  return (
    <section aria-labelledby="peers-heading">
      <h2 id="peers-heading" className="h5">
        Peers
      </h2>
      <p className="text-body-secondary">
        Three peers, A, B and C, each keep a copy of the sandbox chain. Rewrite one copy: change a block and re-mine it to the
        tip. On a demo chain that copy verifies by itself, as a consistent rewrite on one device would, but its tip no longer
        matches the other two, and the majority shows which copy changed and from which block. On the copy of the records chain
        the rewritten copy fails even by itself: re-mining cannot forge its authors' signatures.
      </p>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {report && shown && (
        <>
          <Alert variant={shown.variant} data-peers-agree={String(shown.variant === 'success')}>
            {shown.text}
          </Alert>
          <SideScrollBox label="The three peers' copies">
            <Table size="sm" className="align-middle">
              <caption className="visually-hidden">The three peers' copies of the sandbox chain</caption>
              <thead>
                <tr>
                  <th scope="col">Peer</th>
                  <th scope="col" className="text-end">
                    Blocks
                  </th>
                  <th scope="col">Tip hash</th>
                  <th scope="col">By itself</th>
                  <th scope="col">With the others</th>
                </tr>
              </thead>
              <tbody>
                {report.peers.map((entry) => (
                  <tr
                    key={entry.peer}
                    data-peer={entry.peer}
                    className={entry.differsFrom !== undefined ? 'table-danger' : undefined}
                  >
                    <th scope="row">Peer {entry.peer}</th>
                    <td className="text-end">{formatNumber(entry.status.height)}</td>
                    <td>{entry.tipHash ? <HashBadge hash={entry.tipHash} label={`tip hash of peer ${entry.peer}`} /> : '–'}</td>
                    <td>{entry.status.valid ? 'Valid' : `Invalid at #${entry.status.firstInvalid?.index ?? 0}`}</td>
                    <td>{agreement(entry, report)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </SideScrollBox>
        </>
      )}
      <Form.Group controlId={`${id}-peer`} className="mb-3 peers-choice">
        <Form.Label>Copy to work on</Form.Label>
        <Form.Select value={peer} onChange={(event) => setPeer(event.target.value as PeerName)}>
          {SANDBOX_PEERS.map((name) => (
            <option key={name} value={name}>
              Peer {name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <LiveChain
        key={peer}
        peer={peer}
        caption={`Peer ${peer}'s chain`}
        prepare={prepare}
        chain={chain}
        onChainChange={onChainChange}
        onChanged={onChanged}
      />
    </section>
  );
}
