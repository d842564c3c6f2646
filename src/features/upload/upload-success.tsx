import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { UploadResult } from '../../../workers/api';
import { HashBadge } from '../../components/hash-badge';
import { Icon } from '../../components/icon';

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
            {result.block.index}.
          </p>
          <dl className="detail-list detail-list-inline mb-3">
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
          <Button variant="success" size="sm" onClick={onDone}>
            Upload another document
          </Button>
        </div>
      </div>
    </Alert>
  );
}
