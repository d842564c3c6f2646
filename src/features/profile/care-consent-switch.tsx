import { useCallback, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import type { LedgerRemote } from '../../ledger/ledger-context';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { useLedgerQuery } from '../../ledger/use-ledger-query';

const ACCESS = ['access'] as const; // a consent block, from this device or another, changes who may read

// The patient's consent that the sync server's care network may open their files under an emergency grant
// (docs/decisions/document-keys-travel-wrapped.md).
export function CareConsentSwitch() {
  const service = useLedger();
  const id = useId();
  const load = useCallback((remote: LedgerRemote) => remote.careNetworkConsent(), []);
  const { data: consent, error: loadError, reload } = useLedgerQuery(load, ACCESS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const change = async (on: boolean) => {
    setBusy(true);
    setError('');
    try {
      await service.setCareNetworkConsent(on);
      reload();
    } catch (caught) {
      setError(userMessage(caught, 'The consent could not be saved.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-3">
      <Form.Check
        type="switch"
        role="switch" // react-bootstrap renders a checkbox: say it is an on/off switch
        id={`${id}-care-consent`}
        label="Let the care network open my files in an emergency"
        checked={consent ?? false}
        disabled={busy || consent === undefined}
        onChange={(event) => void change(event.target.checked)}
        aria-describedby={`${id}-care-consent-help`}
      />
      <Form.Text id={`${id}-care-consent-help`}>
        While this device is connected, your files&apos; keys are also locked to the sync server&apos;s care-network key. The
        server opens one only for a doctor with active full emergency access to you, and only that doctor can read it. Your choice
        is a signed block of your ledger: your other devices and the sync server follow it.
      </Form.Text>
      {error || loadError ? (
        <Alert variant="danger" className="mt-2 mb-0" role="alert">
          {error || userMessage(loadError, 'The consent could not be read.')}
        </Alert>
      ) : null}
    </div>
  );
}
