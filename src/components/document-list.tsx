import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { DocumentView } from '../../workers/api';
import { DocumentPreviewModal } from './document-preview-modal';
import { FileArrivalProgress } from './file-arrival';
import { formatBytes, formatDate } from './format';
import { Icon } from './icon';
import { canPreview, useDocumentReader } from './use-document-reader';

interface DocumentListProps {
  documents: readonly DocumentView[];
  onDelete?: (document: DocumentView) => void; // only where the reader owns the documents
}

// A record's files: open (images, PDFs), download, delete; a deleted file stays listed as such, and one still on its
// way from another device shows how far it came, its Open and Download disabled until it lands.
export function DocumentList({ documents, onDelete }: DocumentListProps) {
  const reader = useDocumentReader();
  const reading = reader.busyId !== null;

  return (
    <>
      <ul className="document-list" aria-label="Files">
        {documents.map((document) => {
          const busy = reader.busyId === document.id;
          const arrivalId = `arrival-${document.id}`;
          const unreadable = reading || document.arriving !== undefined;
          const why = document.arriving ? arrivalId : undefined;
          return (
            <li key={document.id} className={document.deletedAt ? 'document-item is-deleted' : 'document-item'}>
              <Icon name="file" size={16} className="document-icon" />
              <span className="document-name">{document.fileName}</span>
              <span className="document-size">{formatBytes(document.fileSize)}</span>
              {document.deletedAt ? (
                <span className="document-deleted">
                  <Badge bg="secondary">file deleted</Badge>
                  <time dateTime={document.deletedAt}>{formatDate(document.deletedAt)}</time>
                </span>
              ) : (
                <span className="document-actions">
                  {document.arriving ? <FileArrivalProgress arrival={document.arriving} id={arrivalId} /> : null}
                  {busy ? (
                    <Spinner animation="border" size="sm" role="status" aria-label={`Reading ${document.fileName}`} />
                  ) : null}
                  {canPreview(document) ? (
                    <Button
                      size="sm"
                      variant="outline-primary"
                      disabled={unreadable}
                      aria-describedby={why}
                      onClick={() => void reader.open(document)}
                      aria-label={`Open ${document.fileName}`}
                    >
                      Open
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    disabled={unreadable}
                    aria-describedby={why}
                    onClick={() => void reader.download(document)}
                    aria-label={`Download ${document.fileName}`}
                  >
                    Download
                  </Button>
                  {onDelete ? (
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={reading}
                      onClick={() => onDelete(document)}
                      aria-label={`Delete ${document.fileName}`}
                    >
                      <Icon name="trash" size={14} /> Delete
                    </Button>
                  ) : null}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {reader.error ? (
        <Alert variant="danger" className="document-error" dismissible onClose={reader.clearError}>
          {reader.error.message}
        </Alert>
      ) : null}
      <DocumentPreviewModal
        preview={reader.preview}
        show={reader.previewShown}
        onHide={reader.closePreview}
        onExited={reader.previewClosed}
      />
    </>
  );
}
