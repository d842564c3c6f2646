import Spinner from 'react-bootstrap/Spinner';

export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="page-spinner" role="status">
      <Spinner animation="border" variant="primary" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
