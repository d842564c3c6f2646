import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { transfer } from 'comlink';
import type { FileInput, UploadResult } from '../../../workers/api';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_FILES_PER_UPLOAD,
  MAX_TITLE_LENGTH,
  SUCCESS_RESET_MS,
} from '../../../workers/core/constants';
import { checkText } from '../../../workers/core/text-input';
import type { UploadRecordType } from '../../../workers/core/types';
import { keepStorage } from '../../components/browser-storage';
import { Icon } from '../../components/icon';
import { LengthNote } from '../../components/length-note';
import { useHoldUpdates } from '../../components/update-holds';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { checkFile, fileKey, tooManyFiles, type FileRejection } from './check-file';
import { FileDropZone } from './file-drop-zone';
import { SelectedFileList, type SelectedFile } from './selected-file-list';
import { UploadSuccess } from './upload-success';
import { usePageFileDrop } from './use-page-file-drop';

const UPLOAD_FAILED = 'Upload failed. Please try again.';

export function UploadPage() {
  const service = useLedger();
  const [recordType, setRecordType] = useState<UploadRecordType>('prescription');
  const [files, setFiles] = useState<SelectedFile[]>([]);
  const [rejected, setRejected] = useState<FileRejection[]>([]);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<UploadResult | null>(null);
  const inFlight = useRef(false); // a second click before React re-renders must not upload twice
  const errorRef = useRef<HTMLDivElement>(null);

  // The worker's rules (text-input.ts) on what is stored (normalised, trimmed); the fields keep every character typed.
  const titleCheck = checkText('title', title);
  const descriptionCheck = checkText('description', description);
  const titleLength = titleCheck.text.length;
  const descriptionLength = descriptionCheck.text.length;
  const titleProblem = titleCheck.blank ? null : titleCheck.problem; // a blank title is the hint's business
  const descriptionProblem = descriptionCheck.problem;
  const tooLong = titleLength > MAX_TITLE_LENGTH || descriptionLength > MAX_DESCRIPTION_LENGTH;
  const complete = files.length > 0 && !titleCheck.blank;
  const refused = titleProblem !== null || descriptionProblem !== null;
  const canUpload = complete && !refused && !uploading;

  const reset = useCallback(() => {
    setRecordType('prescription');
    setFiles([]);
    setRejected([]);
    setTitle('');
    setDescription('');
    setError(null);
    setResult(null);
  }, []);

  // The success panel gives way to an empty form after SUCCESS_RESET_MS.
  useEffect(() => {
    if (!result) return;
    const timer = setTimeout(reset, SUCCESS_RESET_MS);
    return () => clearTimeout(timer);
  }, [result, reset]);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const addFiles = (added: File[]) => {
    const problems: FileRejection[] = [];
    const next = [...files];
    for (const file of added) {
      const problem = checkFile(file);
      const key = fileKey(file);
      if (problem) problems.push(problem);
      else if (next.some((existing) => existing.key === key))
        continue; // the same file again: one entry
      else if (next.length >= MAX_FILES_PER_UPLOAD) problems.push(tooManyFiles(file.name));
      else next.push({ key, file });
    }
    setRejected(problems);
    setFiles(next);
  };

  usePageFileDrop(!uploading && !result, addFiles);
  useHoldUpdates(uploading, 'Wait for the upload to finish.');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current || !complete || refused) return;
    inFlight.current = true;
    setUploading(true);
    setError(null);
    try {
      const inputs: FileInput[] = await Promise.all(
        files.map(async ({ file }) => ({ name: file.name, type: file.type, bytes: await file.arrayBuffer() })),
      );
      const description_ = descriptionCheck.text;
      const request = {
        title: titleCheck.text,
        ...(description_ ? { description: description_ } : {}),
        type: recordType,
        files: inputs,
      };
      const uploaded = await service.upload(
        transfer(
          request,
          inputs.map((input) => input.bytes),
        ),
      );
      setResult(uploaded);
      // the patient's records now exist only here: ask the browser not to evict them (nothing waits on the answer)
      keepStorage().catch((caught: unknown) => console.warn('MedLedger: storage persistence request failed', caught));
    } catch (caught) {
      console.error('MedLedger: upload failed', caught);
      setError(userMessage(caught, UPLOAD_FAILED));
    } finally {
      inFlight.current = false;
      setUploading(false);
    }
  };

  return (
    <>
      <div className="page-header">
        <h1 className="page-title">Upload Medical Documents</h1>
        <p className="page-subtitle">Files are encrypted in your browser and sealed in a new block on the chain.</p>
      </div>

      {result ? (
        <UploadSuccess result={result} onDone={reset} />
      ) : (
        <Card className="upload-card">
          <Card.Body>
            <Form onSubmit={(event) => void submit(event)} aria-label="Upload medical documents" noValidate>
              <fieldset className="mb-3" disabled={uploading}>
                <legend className="form-label fs-6">Record type</legend>
                {/* the radio inside takes focus: tabIndex -1 keeps each label from being a second tab stop */}
                <ToggleButtonGroup
                  type="radio"
                  name="record-type"
                  value={recordType}
                  onChange={(value: UploadRecordType) => setRecordType(value)}
                  className="record-type-toggle"
                >
                  <ToggleButton id="record-type-prescription" value="prescription" variant="outline-primary" tabIndex={-1}>
                    Prescription
                  </ToggleButton>
                  <ToggleButton id="record-type-test-report" value="test_report" variant="outline-primary" tabIndex={-1}>
                    Test Report
                  </ToggleButton>
                </ToggleButtonGroup>
              </fieldset>

              <FileDropZone disabled={uploading} onFiles={addFiles} />

              {rejected.length > 0 ? (
                <Alert
                  variant="warning"
                  role="alert"
                  className="mt-3 mb-0 file-rejections"
                  onClose={() => setRejected([])}
                  dismissible
                >
                  <div className="fw-semibold mb-1">Not added:</div>
                  <ul className="mb-0 ps-3">
                    {rejected.map(({ name, reason }, i) => (
                      // bdi: a right-to-left name cannot reorder the words around it
                      <li key={i}>
                        {name === '' ? (
                          reason
                        ) : (
                          <>
                            <bdi>"{name}"</bdi> {reason}
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                </Alert>
              ) : null}

              <SelectedFileList
                files={files}
                disabled={uploading}
                onRemove={(key) => setFiles((current) => current.filter((entry) => entry.key !== key))}
              />

              <Form.Group className="mt-3 mb-3" controlId="upload-title">
                <Form.Label>Title</Form.Label>
                <Form.Control
                  value={title}
                  onChange={(event) => setTitle(event.target.value)}
                  required
                  isInvalid={titleProblem !== null}
                  aria-invalid={titleProblem !== null || undefined}
                  aria-describedby="upload-title-limit upload-title-count"
                  disabled={uploading}
                  placeholder="e.g. Blood test results, March"
                />
                <LengthNote id="upload-title" what="title" length={titleLength} max={MAX_TITLE_LENGTH} problem={titleProblem} />
              </Form.Group>

              <Form.Group className="mb-3" controlId="upload-description">
                <Form.Label>
                  Description <span className="text-body-secondary fw-normal">(optional)</span>
                </Form.Label>
                <Form.Control
                  as="textarea"
                  rows={3}
                  value={description}
                  onChange={(event) => setDescription(event.target.value)}
                  isInvalid={descriptionProblem !== null}
                  aria-invalid={descriptionProblem !== null || undefined}
                  aria-describedby="upload-description-limit upload-description-count"
                  disabled={uploading}
                />
                <LengthNote
                  id="upload-description"
                  what="description"
                  length={descriptionLength}
                  max={MAX_DESCRIPTION_LENGTH}
                  problem={descriptionProblem}
                />
              </Form.Group>

              {error ? (
                <Alert variant="danger" role="alert" ref={errorRef} tabIndex={-1}>
                  {error}
                </Alert>
              ) : null}

              {uploading ? (
                <div className="upload-progress mb-3" role="status">
                  <div className="progress" role="progressbar" aria-label="Upload in progress">
                    <div className="progress-bar progress-bar-striped progress-bar-animated w-100" />
                  </div>
                  <div className="small text-body-secondary mt-1">Encrypting and mining a new block...</div>
                </div>
              ) : null}

              <div className="d-flex flex-wrap gap-2 align-items-center">
                <Button type="submit" variant="primary" disabled={!canUpload}>
                  <Icon name="upload" size={16} /> {uploading ? 'Uploading...' : 'Upload Documents'}
                </Button>
                {!uploading && !canUpload ? (
                  <span className="small text-body-secondary">
                    {!complete
                      ? 'Add at least one file and a title to upload.'
                      : tooLong
                        ? 'Shorten the title or description to upload.'
                        : 'Correct the title or description to upload.'}
                  </span>
                ) : null}
              </div>
            </Form>
          </Card.Body>
        </Card>
      )}
    </>
  );
}
