import { memo, useEffect, useRef } from 'react';
import type { DocumentView, RecordView } from '../../workers/api';
import { useSession } from '../auth/use-session';
import { ChainProof } from './chain-proof';
import { DocumentList } from './document-list';
import { RecordDate } from './record-date';
import { addedByText, careTeamText } from './record-author';
import { recordAnchor } from './record-link';
import { RecordTypeBadge } from './record-type-badge';

interface RecordDetailProps {
  record: RecordView;
  onDeleteDocument?: (record: RecordView, document: DocumentView) => void;
  documentsWithheld: boolean;
  highlighted?: boolean; // the record a link pointed at (the upload's "View record")
}

function filesLabel(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

// One record in full. Memoized: while a long list grows, the records already shown are not rendered again.
export const RecordDetail = memo(function RecordDetail({
  record,
  onDeleteDocument,
  documentsWithheld,
  highlighted = false,
}: RecordDetailProps) {
  const itemRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!highlighted) return;
    itemRef.current?.focus();
    itemRef.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  const viewerId = useSession().user?.id;
  // the care team matters to the patient: it says who the record is filed with
  const careTeam = viewerId === record.patientId ? careTeamText(record) : null;
  return (
    <li
      className={highlighted ? 'record-detail record-highlight' : 'record-detail'}
      id={recordAnchor(record.id)}
      ref={itemRef}
      tabIndex={highlighted ? -1 : undefined}
      aria-current={highlighted || undefined}
    >
      <div className="record-detail-head">
        <h3 className="record-detail-title">{record.title}</h3>
        {highlighted ? <span className="record-new">Just added</span> : null}
        <RecordTypeBadge type={record.type} />
      </div>
      <div className="record-meta">
        <RecordDate record={record} />
        <span className="record-author">{addedByText(record, viewerId)}</span>
        {careTeam ? <span>{careTeam}</span> : null}
        <ChainProof blockIndex={record.blockIndex} hash={record.blockchainHash} />
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
