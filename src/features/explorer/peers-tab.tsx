import { useSyncStatus } from '../../ledger/use-sync-status';
import { LedgerDevices } from './ledger-devices';
import { PeersPanel } from './peers-panel';
import type { LiveChainProps } from './live-chain';

const LINKED = new Set(['connecting', 'in-step', 'syncing', 'offline']);

// The real devices and the server while this device is connected; otherwise the simulated peers of the sandbox.
export function PeersTab(props: Pick<LiveChainProps, 'prepare' | 'chain' | 'onChainChange'>) {
  const { data, error } = useSyncStatus();
  if (data && LINKED.has(data.state)) return <LedgerDevices status={data} />;
  if (!data && !error) return null; // a moment: the sandbox is not prepared for a device that turns out connected
  return <PeersPanel {...props} />;
}
