import { useCallback, useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { SyncStatus } from '../../../workers/api';
import { SectionCard } from '../../components/section-card';
import { DEFAULT_SYNC_SERVER, defaultDeviceName, syncWords } from '../../components/sync-words';
import { useSession } from '../../auth/use-session';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { useSyncStatus } from '../../ledger/use-sync-status';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { useLedgerQuery } from '../../ledger/use-ledger-query';
import { CareConsentQuestion } from './care-consent-question';
import { CareConsentSwitch } from './care-consent-switch';
import { DeviceTable } from './device-table';

const ACCESS = ['access'] as const; // a consent block, from this device or another, changes who may read
const noConsent = () => Promise.resolve(undefined); // a doctor has no care-network choice

const STATE_VARIANT: Record<SyncStatus['state'], string> = {
  off: 'text-body-secondary',
  connecting: 'text-body',
  'in-step': 'text-success',
  syncing: 'text-body',
  offline: 'text-warning-emphasis',
  refused: 'text-danger',
};

// This device as one of the ledger's witnesses (docs/decisions/one-ledger-across-devices.md): off until the user
// connects it; with sync off nothing is called.
export function SyncCard() {
  const service = useLedger();
  const { user } = useSession();
  const id = useId();
  const { data: status, error: loadError } = useSyncStatus();
  const [serverUrl, setServerUrl] = useState<string | null>(null); // null: what the worker holds, or the default
  const [deviceName, setDeviceName] = useState<string | null>(null);
  const [running, setRunning] = useState<'connect' | 'disconnect' | null>(null); // a connect links the device before it ends
  const busy = running !== null;
  const [error, setError] = useState('');
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(false); // the first Connect of a patient who has not chosen asks first
  const patient = user?.role === 'patient';
  const loadConsent = useCallback((remote: LedgerRemote) => (patient ? remote.careNetworkConsent() : noConsent()), [patient]);
  const {
    data: consent,
    error: consentError,
    reload: reloadConsent,
  } = useLedgerQuery(loadConsent, ACCESS, `care-consent:${patient}`);

  const state = status?.state ?? 'off';
  const linked = state !== 'off' && state !== 'refused';
  const shownServer = serverUrl ?? (status?.serverUrl || DEFAULT_SYNC_SERVER);
  const shownName = deviceName ?? (status?.deviceName || defaultDeviceName(navigator.userAgent));

  const run = async (action: 'connect' | 'disconnect', call: () => Promise<unknown>, failure: string) => {
    setRunning(action);
    setError('');
    try {
      await call();
    } catch (caught) {
      setError(userMessage(caught, failure));
    } finally {
      setRunning(null);
    }
  };

  // another ledger on the server is taken only with the user's password, asked for here before anything changes
  const offersLedger = state === 'refused' && status?.otherLedger === true;

  const connectNow = async () => {
    await service.connectSync({ serverUrl: shownServer, deviceName: shownName, ...(offersLedger ? { password } : {}) });
    setPassword('');
  };

  const answer = (on: boolean) =>
    void run(
      'connect',
      async () => {
        await service.setCareNetworkConsent(on);
        reloadConsent();
        setAsking(false);
        await connectNow();
      },
      'The device could not connect.',
    );

  const connect = (event: FormEvent) => {
    event.preventDefault();
    // a consent block would make this browser's ledger its own, so where the server's ledger is taken it is not asked
    if (patient && consent?.recorded === null && !offersLedger) return setAsking(true);
    void run('connect', connectNow, 'The device could not connect.');
  };

  return (
    <SectionCard title="Devices and sync" icon="share">
      <p>
        Connect this device to a sync server to keep the same records on your other devices and your doctors&apos;. Every block a
        device takes is verified first. Until you connect, MedLedger calls no server.
      </p>
      <Form onSubmit={connect} aria-describedby={`${id}-state`}>
        <Form.Group controlId={`${id}-server`} className="mb-2">
          <Form.Label>Server address</Form.Label>
          <Form.Control
            value={shownServer}
            onChange={(event) => setServerUrl(event.target.value)}
            disabled={linked || busy}
            spellCheck={false}
            autoComplete="url"
            inputMode="url"
          />
        </Form.Group>
        <Form.Group controlId={`${id}-name`} className="mb-3">
          <Form.Label>This device&apos;s name</Form.Label>
          <Form.Control
            value={shownName}
            onChange={(event) => setDeviceName(event.target.value)}
            disabled={linked || busy}
            maxLength={60}
            aria-describedby={linked ? `${id}-rename` : undefined}
          />
          {linked ? (
            <Form.Text id={`${id}-rename`}>
              To rename this device, disconnect, change its name and connect again: it keeps its place on the server.
            </Form.Text>
          ) : null}
        </Form.Group>
        <p id={`${id}-state`} role="status" className={`fw-semibold ${STATE_VARIANT[state]}`} data-sync-state={state}>
          {status ? syncWords(status) : 'Checking the link...'}
        </p>
        {offersLedger ? (
          <Form.Group controlId={`${id}-password`} className="mb-3">
            <Form.Label>Your password</Form.Label>
            <Form.Control
              type="password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              disabled={busy}
              autoComplete="current-password"
              required
            />
          </Form.Group>
        ) : null}
        {asking && !linked ? <CareConsentQuestion busy={busy} onAnswer={answer} onCancel={() => setAsking(false)} /> : null}
        {linked ? (
          <Button
            variant="outline-dark"
            disabled={busy}
            onClick={() => void run('disconnect', () => service.disconnectSync(), 'The device could not disconnect.')}
          >
            {running === 'disconnect' ? 'Disconnecting...' : 'Disconnect'}
          </Button>
        ) : asking ? null : (
          <Button
            type="submit"
            variant="primary"
            disabled={busy || !status || (patient && consent === undefined && !consentError)}
          >
            {busy ? 'Connecting...' : offersLedger ? 'Take the server’s ledger and connect' : 'Connect'}
          </Button>
        )}
      </Form>
      {status?.notice ? (
        <Alert variant="warning" className="mt-3 mb-0" data-sync-notice>
          {status.notice}
        </Alert>
      ) : null}
      {error || loadError ? (
        <Alert variant="danger" className="mt-3 mb-0" role="alert">
          {error || userMessage(loadError, 'The sync state could not be read.')}
        </Alert>
      ) : null}
      {patient ? <CareConsentSwitch consent={consent} loadError={consentError} onChanged={reloadConsent} /> : null}
      {status && status.devices.length > 0 ? <DeviceTable devices={status.devices} /> : null}
    </SectionCard>
  );
}
