import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router-dom';
import type { UploadResult } from '../../../workers/api';
import { HashBadge } from '../../components/hash-badge';
import { Icon } from '../../components/icon';
import { recordLink } from '../../components/record-link';

interface UploadSuccessProps {
  result: UploadResult;
  onDone: () => void;
}

export function UploadSuccess({ result, onDone }: UploadSuccessProps) {
  const ref = useRef<HTMLDivElement>(null);
  const files = result.record.documents.length;

  useEffect(() => {
    ref.current?.focus();
  }, []);

  return (
    <Alert variant="success" className="upload-success" role="status" ref={ref} tabIndex={-1}>
      <div className="d-flex align-items-start gap-3">
        <span className="success-icon" aria-hidden="true">
          <Icon name="check" size={28} />
        </span>
        <div className="min-w-0 flex-grow-1">
          <h2 className="h5 mb-1">Upload successful</h2>
          <p className="mb-2">
            <bdi>{result.record.title}</bdi> ({files === 1 ? '1 file' : `${files} files`}) is secured in block #
            {result.block.index} (the chain's first block is #0).
          </p>
          <details className="chain-proof mb-3">
            <summary>Verified on the chain</summary>
            <dl className="detail-list detail-list-inline mb-0">
              <div>
                <dt>Block</dt>
                <dd>#{result.block.index}</dd>
              </div>
              <div>
                <dt>Record hash</dt>
                <dd>
                  <HashBadge hash={result.record.blockchainHash} label="record hash" />
                </dd>
              </div>
            </dl>
          </details>
          <div className="d-flex flex-wrap gap-2">
            <Link to={recordLink(result.record.id)} className="btn btn-success btn-sm">
              View record
            </Link>
            <Button variant="outline-dark" size="sm" onClick={onDone}>
              Upload another document
            </Button>
          </div>
        </div>
      </div>
    </Alert>
  );
}
