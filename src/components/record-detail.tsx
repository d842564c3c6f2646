import { memo } from 'react';
import type { DocumentView, RecordView } from '../../workers/api';
import { findUser } from '../../workers/core/directory';
import { DocumentList } from './document-list';
import { formatDateTime } from './format';
import { HashBadge } from './hash-badge';
import { RecordTypeBadge } from './record-type-badge';

interface RecordDetailProps {
  record: RecordView;
  onDeleteDocument?: (record: RecordView, document: DocumentView) => void;
  documentsWithheld: boolean;
}

function filesLabel(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

// One record in full. Memoized: while a long list grows, the records already shown are not rendered again.
export const RecordDetail = memo(function RecordDetail({ record, onDeleteDocument, documentsWithheld }: RecordDetailProps) {
  const doctor = record.doctorId ? (findUser(record.doctorId)?.name ?? record.doctorId) : 'No doctor';
  return (
    <li className="record-detail">
      <div className="record-detail-head">
        <h3 className="record-detail-title">{record.title}</h3>
        <RecordTypeBadge type={record.type} />
      </div>
      <div className="record-meta">
        <time dateTime={record.timestamp}>{formatDateTime(record.timestamp)}</time>
        <span>{doctor}</span>
        <span>Block #{record.blockIndex}</span>
        <HashBadge hash={record.blockchainHash} label="block hash" />
      </div>
      {record.description ? <p className="record-description">{record.description}</p> : null}
      {documentsWithheld ? (
        record.fileCount > 0 ? (
          <p className="record-withheld">{filesLabel(record.fileCount)}: documents need full access.</p>
        ) : null
      ) : record.documents.length > 0 ? (
        <DocumentList
          documents={record.documents}
          onDelete={onDeleteDocument ? (document) => onDeleteDocument(record, document) : undefined}
        />
      ) : null}
    </li>
  );
});
