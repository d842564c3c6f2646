import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { BackupScope } from '../../workers/api';
import { MIN_BACKUP_PASSWORD_LENGTH } from '../../workers/core/constants';

interface BackupPasswordModalProps {
  scope: BackupScope;
  show: boolean;
  onCancel: () => void;
  onSubmit: (scope: BackupScope, password: string) => void;
}

const TITLES: Record<BackupScope, string> = { mine: 'Download my backup', browser: 'Back up this whole browser' };

// The password that seals the backup, typed twice: a lost or mistyped password cannot be recovered.
export function BackupPasswordModal({ scope, show, onCancel, onSubmit }: BackupPasswordModalProps) {
  const titleId = useId();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const tooShort = [...password].length < MIN_BACKUP_PASSWORD_LENGTH;
  const problem = tooShort
    ? `Choose a backup password of at least ${MIN_BACKUP_PASSWORD_LENGTH} characters.`
    : password !== repeat
      ? 'The two passwords differ.'
      : '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem) return;
    onSubmit(scope, password);
    setPassword('');
    setRepeat('');
    setTried(false);
  };

  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby={titleId} onExited={() => setTried(false)}>
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId} as="h2" className="h5">
            {TITLES[scope]}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small">
            {scope === 'browser'
              ? 'The backup holds the whole ledger of this browser: every account’s records, files (encrypted), access log and keys. Keep it as you would keep this browser.'
              : 'The backup holds your records, their files (encrypted), your access history and your own key. Of other records it keeps only what links the chain, never their content.'}{' '}
            The password seals it; without it the backup cannot be restored, and it cannot be recovered.
          </p>
          <Form.Group className="mb-3" controlId="backup-password">
            <Form.Label>Backup password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              isInvalid={tried && tooShort}
              aria-describedby="backup-password-hint"
              autoFocus
            />
            <Form.Text id="backup-password-hint">At least {MIN_BACKUP_PASSWORD_LENGTH} characters.</Form.Text>
          </Form.Group>
          <Form.Group controlId="backup-password-repeat">
            <Form.Label>Repeat the password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(event) => setRepeat(event.target.value)}
              isInvalid={tried && !!problem && !tooShort}
            />
          </Form.Group>
          {tried && problem ? (
            <p className="text-danger small mt-2 mb-0" role="alert">
              {problem}
            </p>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant="primary">
            Download backup
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
