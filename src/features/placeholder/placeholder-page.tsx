import Card from 'react-bootstrap/Card';
import { Icon } from '../../components/icon';

// The four "coming soon" routes of SEED.md section 2 (real screens arrive in a later issue).
export function PlaceholderPage({ title, message }: { title: string; message: string }) {
  return (
    <>
      <div className="page-header">
        <h1 className="page-title">{title}</h1>
      </div>
      <Card className="placeholder-card">
        <Card.Body className="text-center py-5">
          <span className="placeholder-icon" aria-hidden="true">
            <Icon name="clock" size={28} />
          </span>
          <p className="mb-0 mt-3 text-body-secondary">{message}</p>
        </Card.Body>
      </Card>
    </>
  );
}
