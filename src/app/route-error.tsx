import Button from 'react-bootstrap/Button';

export function RouteError() {
  return (
    <div className="route-error" role="alert">
      <h1 className="h4">Something went wrong</h1>
      <p className="route-error-hint">This screen could not be shown. Your records are safe.</p>
      <Button href="/" variant="primary">
        Back to start
      </Button>
    </div>
  );
}
