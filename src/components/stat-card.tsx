import Card from 'react-bootstrap/Card';
import type { ReactNode } from 'react';
import { Icon, type IconName } from './icon';
import { SampleTag } from './sample-tag';

interface StatCardProps {
  label: string;
  value: ReactNode;
  icon: IconName;
  tone?: 'primary' | 'success' | 'info' | 'warning' | 'danger';
  hint?: ReactNode;
  sample?: boolean; // a fixed demo figure, tagged as such
}

export function StatCard({ label, value, icon, tone = 'primary', hint, sample = false }: StatCardProps) {
  return (
    <Card className="stat-card h-100">
      <Card.Body className="d-flex align-items-center gap-3">
        <span className={`stat-icon stat-icon-${tone}`}>
          <Icon name={icon} size={22} />
        </span>
        <div className="min-w-0">
          <div className="stat-label">{label}</div>
          <div className="stat-value">{value}</div>
          {hint || sample ? (
            <div className="stat-hint">
              {sample ? <SampleTag /> : null}
              {hint}
            </div>
          ) : null}
        </div>
      </Card.Body>
    </Card>
  );
}
