import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { SHORT_HASH_LENGTH } from '../../workers/core/constants';
import type { DocumentPreview } from './use-document-reader';

interface DocumentPreviewModalProps {
  preview: DocumentPreview | null;
  show: boolean;
  onHide: () => void;
  onExited: () => void;
}

// Chromium's viewer: no toolbar (its title would be the blob URL's random id; the modal names the file), no
// thumbnail pane, the page fitted to the width.
const PDF_VIEW = '#toolbar=0&navpanes=0&view=FitH';

// An image or PDF shown from its blob URL, with download and open-in-a-new-tab.
export function DocumentPreviewModal({ preview, show, onHide, onExited }: DocumentPreviewModalProps) {
  const titleId = useId();
  if (!preview) return null;
  const { document, url, type } = preview;

  return (
    <Modal
      show={show}
      onHide={onHide}
      onExited={onExited}
      size="lg"
      centered
      fullscreen="sm-down"
      scrollable
      aria-labelledby={titleId}
    >
      <Modal.Header closeButton closeLabel="Close preview">
        <Modal.Title id={titleId} as="h2" className="h5 text-break">
          {document.fileName}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="document-preview">
        {type === 'application/pdf' ? (
          <iframe src={`${url}${PDF_VIEW}`} title={document.fileName} className="document-preview-frame" />
        ) : type.startsWith('image/') ? (
          <img src={url} alt={document.fileName} className="document-preview-image" />
        ) : null}
        <p className="small text-body-secondary mt-2 mb-0">Checked: this is exactly the file that was added.</p>
        <details className="chain-proof">
          <summary>Verified on the chain</summary>
          <span className="chain-proof-body">
            Content id{' '}
            <code className="document-cid" title={document.ipfsHash}>
              {document.ipfsHash.slice(0, SHORT_HASH_LENGTH + 2)}…
            </code>
          </span>
        </details>
      </Modal.Body>
      <Modal.Footer className="document-preview-actions">
        <a className="btn btn-outline-dark" href={url} target="_blank" rel="noopener">
          Open in new tab
        </a>
        <a className="btn btn-primary" href={url} download={document.fileName}>
          Download
        </a>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
