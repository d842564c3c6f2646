import Card from 'react-bootstrap/Card';
import type { ReactNode } from 'react';
import { Icon, type IconName } from './icon';

interface StatCardProps {
  label: string;
  value: ReactNode;
  icon: IconName;
  tone?: 'primary' | 'success' | 'info' | 'warning' | 'danger';
  hint?: ReactNode;
}

export function StatCard({ label, value, icon, tone = 'primary', hint }: StatCardProps) {
  return (
    <Card className="stat-card h-100">
      <Card.Body className="d-flex align-items-center gap-3">
        <span className={`stat-icon stat-icon-${tone}`}>
          <Icon name={icon} size={22} />
        </span>
        <div className="min-w-0">
          <div className="stat-label">{label}</div>
          <div className="stat-value">{value}</div>
          {hint ? <div className="stat-hint">{hint}</div> : null}
        </div>
      </Card.Body>
    </Card>
  );
}
