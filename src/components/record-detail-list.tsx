import { useEffect, useState, type ReactNode } from 'react';
import type { DocumentView, RecordView } from '../../workers/api';
import { findUser } from '../../workers/core/directory';
import { DocumentList } from './document-list';
import { formatDateTime } from './format';
import { HashBadge } from './hash-badge';
import { RecordTypeBadge } from './record-type-badge';
import './record-detail.css';

interface RecordDetailListProps {
  records: readonly RecordView[];
  empty: ReactNode;
  onDeleteDocument?: (record: RecordView, document: DocumentView) => void;
  documentsWithheld?: boolean; // the reader may see the record but not its files (basic emergency access)
}

function filesLabel(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

// A long list is built in steps of this many records, one task each: 1,000 records at once block the page for over a second.
const RECORDS_PER_STEP = 40;

// Records in full: date, doctor, description, block number, short hash and their files.
export function RecordDetailList({ records, empty, onDeleteDocument, documentsWithheld = false }: RecordDetailListProps) {
  const [shown, setShown] = useState(RECORDS_PER_STEP);
  const [length, setLength] = useState(records.length);
  if (records.length !== length) {
    setLength(records.length);
    if (records.length < length) setShown(RECORDS_PER_STEP); // a narrower search: build the next long list in steps again
  }
  useEffect(() => {
    if (shown >= records.length) return;
    const timer = setTimeout(() => setShown((count) => count + RECORDS_PER_STEP));
    return () => clearTimeout(timer);
  }, [shown, records.length]);

  if (records.length === 0) return <div className="empty-state">{empty}</div>;
  return (
    <ul className="record-detail-list" aria-busy={shown < records.length || undefined}>
      {records.slice(0, shown).map((record) => {
        const doctor = record.doctorId ? (findUser(record.doctorId)?.name ?? record.doctorId) : 'No doctor';
        return (
          <li key={record.id} className="record-detail">
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
              record.documentIds.length > 0 ? (
                <p className="record-withheld">{filesLabel(record.documentIds.length)}: documents need full access.</p>
              ) : null
            ) : record.documents.length > 0 ? (
              <DocumentList
                documents={record.documents}
                onDelete={onDeleteDocument ? (document) => onDeleteDocument(record, document) : undefined}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
