import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { formatBytes } from '../../components/format';
import { Icon } from '../../components/icon';

export interface SelectedFile {
  key: string;
  file: File;
}

interface SelectedFileListProps {
  files: readonly SelectedFile[];
  disabled: boolean;
  onRemove: (key: string) => void;
}

export function SelectedFileList({ files, disabled, onRemove }: SelectedFileListProps) {
  if (files.length === 0) return null;
  return (
    <ListGroup as="ul" className="selected-files" aria-label="Selected files">
      {files.map(({ key, file }) => (
        <ListGroup.Item as="li" key={key} className="selected-file">
          <span className="record-icon" aria-hidden="true">
            <Icon name="file" size={16} />
          </span>
          {/* the tooltip keeps a long name readable in full; bdi keeps a right-to-left name from reordering the row */}
          <bdi className="selected-file-name" title={file.name}>
            {file.name}
          </bdi>
          <span className="selected-file-size">{formatBytes(file.size)}</span>
          <Button
            variant="link"
            size="sm"
            className="text-danger p-1"
            onClick={() => onRemove(key)}
            disabled={disabled}
            aria-label={`Remove ${file.name}`}
            title={`Remove ${file.name}`}
          >
            <Icon name="trash" size={16} />
          </Button>
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}
