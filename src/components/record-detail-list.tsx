import { startTransition, useEffect, useState, type ReactNode } from 'react';
import type { DocumentView, RecordView } from '../../workers/api';
import { RecordDetail } from './record-detail';
import './record-detail.css';

interface RecordDetailListProps {
  records: readonly RecordView[];
  empty: ReactNode;
  onDeleteDocument?: (record: RecordView, document: DocumentView) => void;
  documentsWithheld?: boolean; // the reader may see the record but not its files (basic emergency access)
  highlightId?: string | null; // a record to mark and move to
}

// A long list is built in steps of this many records, one task each: 1,000 records at once block the page for over a second.
const RECORDS_PER_STEP = 40;

// Records in full: date, doctor, description, block number, short hash and their files.
export function RecordDetailList({
  records,
  empty,
  onDeleteDocument,
  documentsWithheld = false,
  highlightId = null,
}: RecordDetailListProps) {
  const [shown, setShown] = useState(RECORDS_PER_STEP);
  const [length, setLength] = useState(records.length);
  if (records.length !== length) {
    setLength(records.length);
    if (records.length < length) setShown(RECORDS_PER_STEP); // a narrower search: build the next long list in steps again
  }
  useEffect(() => {
    if (shown >= records.length) return;
    // a transition: React builds the step in slices and yields to input between them
    const timer = setTimeout(() => startTransition(() => setShown((count) => count + RECORDS_PER_STEP)));
    return () => clearTimeout(timer);
  }, [shown, records.length]);

  if (records.length === 0) return <div className="empty-state">{empty}</div>;
  return (
    <ul className="record-detail-list" aria-busy={shown < records.length || undefined}>
      {records.slice(0, shown).map((record) => (
        <RecordDetail
          key={record.id}
          record={record}
          onDeleteDocument={onDeleteDocument}
          documentsWithheld={documentsWithheld}
          highlighted={record.id === highlightId}
        />
      ))}
    </ul>
  );
}
