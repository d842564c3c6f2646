import Card from 'react-bootstrap/Card';
import type { ReactNode } from 'react';
import { Icon, type IconName } from './icon';

interface SectionCardProps {
  title: string;
  icon: IconName;
  action?: ReactNode;
  children: ReactNode;
  flush?: boolean; // the body is a list that draws its own edges
  fill?: boolean; // stretch to the row's height, so cards side by side line up
}

export function SectionCard({ title, icon, action, children, flush = false, fill = false }: SectionCardProps) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Card as="section" className={fill ? 'section-card h-100' : 'section-card'} aria-labelledby={id}>
      <Card.Header className="section-card-header">
        <h2 className="section-title" id={id}>
          <Icon name={icon} size={18} />
          {title}
        </h2>
        {action}
      </Card.Header>
      {flush ? children : <Card.Body>{children}</Card.Body>}
    </Card>
  );
}
