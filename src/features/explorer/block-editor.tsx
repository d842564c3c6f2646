import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import CloseButton from 'react-bootstrap/CloseButton';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import type { ChainStatus, InvalidBlock, MiningProgress, SandboxBlock } from '../../../workers/api';
import { checkText } from '../../../workers/core/text-input';
import { rowProblem } from './block-row';
import { RemineProgress } from './remine-progress';

export interface BlockFields {
  title?: string;
  description?: string;
}

interface BlockEditorProps {
  block: SandboxBlock; // as the worker last answered
  status: ChainStatus;
  invalid?: InvalidBlock; // the first invalid block as shown (a pending edit counts)
  heading: string;
  job: { from: number; progress: MiningProgress | null; cancelling: boolean } | null;
  busy: boolean; // a re-mine of this chain is on its way
  error: string;
  onEdit: (fields: BlockFields) => void;
  onRemine: () => void;
  onRemineFrom: () => void;
  onCancel: () => void;
  onClose: () => void;
}

// One sandbox block opened for editing: every keystroke goes to the worker, which answers with the block's
// new data hash and hash (same nonce); the block then shows why it is invalid until it is re-mined. A block
// of a record the reader may not read is shown read-only: its header only, since the worker has no more of it.
export function BlockEditor({
  block,
  status,
  invalid,
  heading,
  job,
  busy,
  error,
  onEdit,
  onRemine,
  onRemineFrom,
  onCancel,
  onClose,
}: BlockEditorProps) {
  const id = useId();
  const [title, setTitle] = useState(block.restricted ? '' : block.title);
  const [description, setDescription] = useState(block.restricted ? '' : block.description);
  const [touched, setTouched] = useState({ title: false, description: false });

  // the worker's rules, said before the call; a text they refuse is not sent
  const titleProblem = touched.title ? checkText('tamperTitle', title).problem : null;
  const descriptionProblem = touched.description ? checkText('description', description).problem : null;

  const change = (next: { title: string; description: string }, nextTouched: { title: boolean; description: boolean }) => {
    setTitle(next.title);
    setDescription(next.description);
    setTouched(nextTouched);
    if (nextTouched.title && checkText('tamperTitle', next.title).problem) return;
    if (nextTouched.description && checkText('description', next.description).problem) return;
    onEdit({
      ...(nextTouched.title ? { title: next.title } : {}),
      ...(nextTouched.description ? { description: next.description } : {}),
    });
  };

  const problem = rowProblem(block, invalid);
  const locked = busy || job !== null;
  return (
    <Card className="mb-3" border={problem ? 'danger' : 'success'} data-editor-index={block.index} data-valid={String(!problem)}>
      <Card.Header className="d-flex align-items-center gap-2">
        <h3 className="h6 mb-0 me-auto">{heading}</h3>
        <CloseButton aria-label="Close the block editor" onClick={onClose} />
      </Card.Header>
      <Card.Body>
        <Row className="g-3">
          <Col md={6}>
            {block.restricted ? (
              <p className="small text-body-secondary mb-0" data-restricted="true">
                Restricted record: it is not yours to read, so it cannot be edited here. You can still re-mine it.
              </p>
            ) : (
              <>
                <Form.Group controlId={`${id}-title`} className="mb-2">
                  <Form.Label>Title</Form.Label>
                  <Form.Control
                    value={title}
                    onChange={(event) => change({ title: event.target.value, description }, { ...touched, title: true })}
                    disabled={locked}
                    isInvalid={titleProblem !== null}
                    aria-invalid={titleProblem !== null || undefined}
                    aria-describedby={titleProblem ? `${id}-title-problem` : undefined}
                  />
                  <Form.Control.Feedback type="invalid" id={`${id}-title-problem`}>
                    {titleProblem}
                  </Form.Control.Feedback>
                </Form.Group>
                <Form.Group controlId={`${id}-description`}>
                  <Form.Label>Description</Form.Label>
                  <Form.Control
                    as="textarea"
                    rows={2}
                    value={description}
                    onChange={(event) => change({ title, description: event.target.value }, { ...touched, description: true })}
                    disabled={locked}
                    isInvalid={descriptionProblem !== null}
                    aria-invalid={descriptionProblem !== null || undefined}
                    aria-describedby={descriptionProblem ? `${id}-description-problem` : undefined}
                  />
                  <Form.Control.Feedback type="invalid" id={`${id}-description-problem`}>
                    {descriptionProblem}
                  </Form.Control.Feedback>
                </Form.Group>
              </>
            )}
          </Col>
          <Col md={6}>
            <dl className="row small mb-0 sandbox-hashes">
              <dt className="col-4">Nonce</dt>
              <dd className="col-8 font-monospace">{block.nonce}</dd>
              <dt className="col-4">Previous hash</dt>
              <dd className="col-8">
                <code className="explorer-hash">{block.previousHash}</code>
              </dd>
              <dt className="col-4">Data hash</dt>
              <dd className="col-8">
                <code className="explorer-hash" data-field="dataHash">
                  {block.dataHash}
                </code>
              </dd>
              <dt className="col-4">Hash</dt>
              <dd className="col-8">
                <code className="explorer-hash" data-field="hash">
                  {block.hash}
                </code>
              </dd>
            </dl>
          </Col>
        </Row>
        <p
          className={`mt-3 mb-2 fw-semibold ${job ? '' : problem ? 'text-danger-emphasis' : 'text-success-emphasis'}`}
          aria-live="polite"
        >
          {job
            ? 'Re-mining: every block is checked again when it ends.'
            : problem
              ? `Invalid: ${problem}.`
              : `Valid: the hash matches the block, starts with ${status.difficulty} zeros and links to the block before.`}
        </p>
        {error && (
          <Alert variant="danger" className="py-2" role="alert">
            {error}
          </Alert>
        )}
        <div className="d-flex flex-wrap gap-2">
          <Button variant="warning" onClick={onRemine} disabled={locked}>
            Re-mine
          </Button>
          <Button variant="outline-dark" onClick={onRemineFrom} disabled={locked}>
            Re-mine from here
          </Button>
        </div>
        {job && <RemineProgress from={job.from} progress={job.progress} cancelling={job.cancelling} onCancel={onCancel} />}
      </Card.Body>
    </Card>
  );
}
