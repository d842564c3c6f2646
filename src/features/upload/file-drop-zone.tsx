import { useId, useRef, useState, type DragEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { Icon } from '../../components/icon';
import { ACCEPT_ATTRIBUTE } from './check-file';

interface FileDropZoneProps {
  disabled: boolean;
  onFiles: (files: File[]) => void;
}

// Native drag and drop around a real, labelled file input (the keyboard path).
export function FileDropZone({ disabled, onFiles }: FileDropZoneProps) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0); // dragenter/dragleave fire for every child element
  const inputId = useId();
  const hintId = useId();

  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

  const onDragEnter = (event: DragEvent) => {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true); // a drag that began over a child, or after a missed dragenter
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer?.files ?? []);
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      className={`drop-zone${dragging ? ' is-dragging' : ''}${disabled ? ' is-disabled' : ''}`}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      data-testid="drop-zone"
    >
      <span className="drop-zone-icon" aria-hidden="true">
        <Icon name="upload" size={28} />
      </span>
      <div className="drop-zone-text">
        {dragging ? 'Drop the files to add them' : 'Drag and drop files here, or choose them below'}
      </div>
      {/* the native input reads "No file chosen" even with files added below: it stays hidden, its label is the button */}
      <Form.Control
        id={inputId}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        disabled={disabled}
        aria-describedby={hintId}
        className="drop-zone-input visually-hidden"
        onChange={(event) => {
          const input = event.target as HTMLInputElement;
          const files = Array.from(input.files ?? []);
          input.value = ''; // picking the same file again must fire change again
          if (files.length > 0) onFiles(files);
        }}
      />
      <Form.Label htmlFor={inputId} className={`btn btn-outline-primary drop-zone-button${disabled ? ' disabled' : ''}`}>
        <Icon name="upload" size={16} /> Add files
      </Form.Label>
      <div id={hintId} className="form-text">
        PDF, JPG, JPEG, PNG, DOC or DOCX, maximum 10MB each
      </div>
    </div>
  );
}
