import ListGroup from 'react-bootstrap/ListGroup';
import type { ReactNode } from 'react';
import type { RecordView } from '../../workers/api';
import { useSession } from '../auth/use-session';
import { ChainProof } from './chain-proof';
import { RecordDate } from './record-date';
import { HashBadge } from './hash-badge';
import { Icon } from './icon';
import { addedByPatient, addedByText } from './record-author';
import { RecordTypeBadge } from './record-type-badge';
import { userName } from './user-name';

interface RecordListProps {
  records: readonly RecordView[];
  empty: ReactNode;
  showPatient?: boolean; // doctors see whose record it is, and the block and hash in the open
  checking?: boolean; // the chain's checks are still running: its records are not called verified yet
}

export function RecordList({ records, empty, showPatient = false, checking = false }: RecordListProps) {
  const viewerId = useSession().user?.id;
  if (records.length === 0) return <div className="empty-state">{empty}</div>;
  return (
    <ListGroup variant="flush" as="ul" className="record-list">
      {records.map((record) => {
        const files = record.documents.filter((document) => !document.deletedAt).length;
        return (
          <ListGroup.Item as="li" key={record.id} className="record-item">
            <span className="record-icon" aria-hidden="true">
              <Icon name={record.type === 'emergency_access' ? 'alert' : 'file'} size={18} />
            </span>
            <div className="record-main min-w-0">
              <div className="record-title" title={record.title}>
                {record.title}
              </div>
              <div className="record-meta">
                <RecordTypeBadge type={record.type} />
                {showPatient && !addedByPatient(record) ? <span>{userName(record.patientId)}</span> : null}
                <span className="record-author">{addedByText(record, viewerId)}</span>
                <RecordDate record={record} />
                {files > 0 ? <span>{files === 1 ? '1 file' : `${files} files`}</span> : null}
              </div>
              {showPatient ? null : (
                <ChainProof blockIndex={record.blockIndex} hash={record.blockchainHash} checking={checking} />
              )}
            </div>
            {showPatient ? (
              <div className="record-hash">
                <span className="record-block">Block #{record.blockIndex}</span>
                <HashBadge hash={record.blockchainHash} label="block hash" />
              </div>
            ) : null}
          </ListGroup.Item>
        );
      })}
    </ListGroup>
  );
}
