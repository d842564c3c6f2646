import Spinner from 'react-bootstrap/Spinner';
import { usePendingScreen } from './pending-screen';

export function PageSpinner({ label }: { label: string }) {
  usePendingScreen();
  return (
    <div className="page-spinner" role="status">
      <Spinner animation="border" variant="primary" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
