import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { MIN_BACKUP_PASSWORD_LENGTH } from '../../../workers/core/constants';

interface BackupPasswordModalProps {
  show: boolean;
  onCancel: () => void;
  onSubmit: (password: string) => void;
}

// The password that seals the backup, typed twice: a lost or mistyped password cannot be recovered.
export function BackupPasswordModal({ show, onCancel, onSubmit }: BackupPasswordModalProps) {
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
    onSubmit(password);
    setPassword('');
    setRepeat('');
    setTried(false);
  };

  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby={titleId} onExited={() => setTried(false)}>
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={titleId} as="h2" className="h5">
            Download backup
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small">
            The backup holds the whole ledger of this browser: the chain, every stored file (encrypted) and the access log. The
            password seals the chain and the file keys; without it the backup cannot be restored, and it cannot be recovered.
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
