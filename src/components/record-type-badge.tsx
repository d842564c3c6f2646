import Badge from 'react-bootstrap/Badge';
import type { RecordType } from '../../workers/core/types';
import { RECORD_TYPE_LABELS, RECORD_TYPE_VARIANTS } from './record-type';

export function RecordTypeBadge({ type }: { type: RecordType }) {
  return (
    <Badge bg={RECORD_TYPE_VARIANTS[type]} className={`record-type record-type-${type}`}>
      {RECORD_TYPE_LABELS[type]}
    </Badge>
  );
}
