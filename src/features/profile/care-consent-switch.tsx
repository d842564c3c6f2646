import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import type { CareConsent } from '../../../workers/api';
import { formatDate } from '../../components/format';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';

// What the choice means, in one sentence: said beside the switch and in the question of the first Connect.
export const CARE_CONSENT_MEANING =
  'If you allow it, a doctor with full emergency access to you can open your files through the sync server, even when you cannot be asked.';

function recordedText(consent: CareConsent): string {
  if (consent.recorded === null) return 'You have not chosen yet, so it is off. You are asked when you first connect.';
  const when = consent.at ? ` on ${formatDate(consent.at)}` : '';
  return consent.recorded === 'setup'
    ? `Set to ${consent.on ? 'on' : 'off'} for this demo account when the demo was set up${when}. You can change it.`
    : `Your choice, recorded${when}.`;
}

// The patient's consent that the sync server's care network may open their files under an emergency grant
// (docs/decisions/document-keys-travel-wrapped.md). `consent` is the sync card's query of it.
export function CareConsentSwitch({
  consent,
  loadError,
  onChanged,
}: {
  consent: CareConsent | undefined;
  loadError: Error | undefined;
  onChanged: () => void;
}) {
  const service = useLedger();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const change = async (on: boolean) => {
    setBusy(true);
    setError('');
    try {
      await service.setCareNetworkConsent(on);
      onChanged();
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
        checked={consent?.on ?? false}
        disabled={busy || consent === undefined}
        onChange={(event) => void change(event.target.checked)}
        aria-describedby={`${id}-care-consent-recorded ${id}-care-consent-help`}
      />
      {consent ? (
        <p id={`${id}-care-consent-recorded`} className="small mb-1" data-consent-recorded={consent.recorded ?? 'none'}>
          {recordedText(consent)}
        </p>
      ) : null}
      <Form.Text id={`${id}-care-consent-help`}>
        {CARE_CONSENT_MEANING} While this device is connected, your files&apos; keys are also locked to the sync server&apos;s
        care-network key; only that doctor can read what it opens. Your choice is a signed block of your ledger: your other
        devices and the sync server follow it.
      </Form.Text>
      {error || loadError ? (
        <Alert variant="danger" className="mt-2 mb-0" role="alert">
          {error || userMessage(loadError, 'The consent could not be read.')}
        </Alert>
      ) : null}
    </div>
  );
}
