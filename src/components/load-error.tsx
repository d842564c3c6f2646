import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { userMessage } from '../ledger/error-message';

export function LoadError({ error, what, onRetry }: { error: unknown; what: string; onRetry: () => void }) {
  return (
    <Alert variant="danger" role="alert" className="d-flex flex-wrap align-items-center gap-2">
      <span className="me-auto">{userMessage(error, `Could not load ${what}.`)}</span>
      <Button variant="outline-danger" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
