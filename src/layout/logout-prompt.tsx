import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { EmergencyGrant } from '../../workers/core/types';
import { userName } from '../components/user-name';
import { userMessage } from '../ledger/error-message';
import { useLedger } from '../ledger/use-ledger';

interface LogoutPromptProps {
  grants: readonly EmergencyGrant[]; // the doctor's sessions open at the click on Logout
  onLogout: () => void;
  onCancel: () => void;
}

// A doctor logging out with an emergency session open decides its fate: ended now, or left to run to its expiry.
export function LogoutPrompt({ grants, onLogout, onCancel }: LogoutPromptProps) {
  const service = useLedger();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const names = grants.map((grant) => userName(grant.patientId)).join(' and ');

  const endAndLogout = async () => {
    setBusy(true);
    setError(null);
    try {
      for (const grant of grants) await service.endEmergencyAccess(grant.id);
      onLogout();
    } catch (caught) {
      setError(userMessage(caught, 'The emergency session could not be ended. Please try again.'));
      setBusy(false);
    }
  };

  return (
    <Modal show onHide={onCancel} centered aria-labelledby="logout-prompt-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title as="h2" className="h5" id="logout-prompt-title">
          Emergency session open
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">End the emergency session for {names} before logging out?</p>
        {error ? (
          <div className="text-danger small mt-2" role="alert">
            {error}
          </div>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="danger" onClick={() => void endAndLogout()} disabled={busy}>
          End and log out
        </Button>
        <Button variant="outline-secondary" onClick={onLogout} disabled={busy}>
          Log out and keep it
        </Button>
        <Button variant="link" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
