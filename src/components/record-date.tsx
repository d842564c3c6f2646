import type { RecordView } from '../../workers/api';
import { formatDateTime, formatDocumentDate } from './format';

// A record's date: an imported document's own date, then when it was added here; otherwise when it was added.
export function RecordDate({ record }: { record: Pick<RecordView, 'timestamp' | 'documentDate'> }) {
  if (!record.documentDate) return <time dateTime={record.timestamp}>{formatDateTime(record.timestamp)}</time>;
  return (
    <>
      <span>
        Dated <time dateTime={record.documentDate}>{formatDocumentDate(record.documentDate)}</time>
      </span>
      <span>
        Imported <time dateTime={record.timestamp}>{formatDateTime(record.timestamp)}</time>
      </span>
    </>
  );
}
