import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import type { ChainStatus } from '../../../workers/api';
import { checkText } from '../../../workers/core/text-input';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { BlockTable } from './block-table';
import { VerificationSummary } from './verification-summary';

type Action = 'tamper' | 'remine' | 'reset';

// 0 copies the records chain; the others build a demo chain of that many blocks in the worker
const SOURCES = [
  { blocks: 0, label: 'Copy of the records chain' },
  { blocks: 20, label: 'Demo chain, 20 blocks' },
  { blocks: 1000, label: 'Demo chain, 1,000 blocks' },
  { blocks: 10000, label: 'Demo chain, 10,000 blocks' },
] as const;

const STEP_TEXT: Record<Action, (index: number, status: ChainStatus) => string> = {
  tamper: (index, status) =>
    status.firstInvalid?.index === index
      ? `Block #${index} now holds changed data: verification points at it.`
      : `Block #${index} was changed.`,
  remine: (index, status) =>
    status.firstInvalid
      ? `Block #${index} was re-mined: its own hash is valid again, so verification now stops at block #${status.firstInvalid.index}.`
      : `Block #${index} was re-mined. It was the newest block, so no later link can break.`,
  reset: (source, status) =>
    source === 0
      ? 'The sandbox is a fresh copy of the records chain.'
      : `The sandbox is a demo chain of ${status.height.toLocaleString('en-US')} blocks.`,
};

// Tampering on a sandbox copy of the chain in the worker: the real records are never touched.
export function TamperDemo() {
  const service = useLedger();
  const [status, setStatus] = useState<ChainStatus | null>(null);
  const [generation, setGeneration] = useState(0);
  const [index, setIndex] = useState('1');
  const [title, setTitle] = useState('Altered record');
  const [busy, setBusy] = useState<Action | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [scrollTo, setScrollTo] = useState<{ index: number; request: number } | null>(null);

  const loadBlocks = useCallback((offset: number, limit: number) => service.sandboxPage(offset, limit), [service]);

  const run = useCallback(
    async (action: Action, work: () => Promise<ChainStatus>, target: number) => {
      setBusy(action);
      setError('');
      try {
        const next = await work();
        setStatus(next);
        setGeneration((value) => value + 1);
        setNote(STEP_TEXT[action](target, next));
        if (action !== 'reset') setScrollTo((previous) => ({ index: target, request: (previous?.request ?? 0) + 1 }));
      } catch (caught) {
        setError(userMessage(caught, 'The sandbox could not do that. Reset it and try again.'));
      } finally {
        setBusy(null);
      }
    },
    [],
  );

  const [source, setSource] = useState('0');

  const resetTo = useCallback(
    async (blocks: number) => {
      await service.sandboxReset(blocks);
      return (await service.sandboxPage(0, 1)).status;
    },
    [service],
  );

  // a fresh copy of the records chain each time the demo opens
  useEffect(() => {
    let current = true;
    resetTo(0).then(
      (fresh) => current && setStatus(fresh),
      (caught: unknown) => current && setError(userMessage(caught, 'The sandbox could not be prepared.')),
    );
    return () => {
      current = false;
    };
  }, [resetTo]);

  const height = status?.height ?? 0;
  const target = Number(index);
  const targetValid = index.trim() !== '' && Number.isInteger(target) && target >= 0 && target < height;
  const titleCheck = checkText('tamperTitle', title); // the worker's rule, said before the call
  const titleProblem = titleCheck.blank ? null : titleCheck.problem; // a blank title only disables the button
  const titleReady = !titleCheck.blank && titleCheck.problem === null;

  const tamper = (event: FormEvent) => {
    event.preventDefault();
    if (targetValid && titleReady) void run('tamper', () => service.sandboxTamper(target, titleCheck.text), target);
  };

  return (
    <section aria-labelledby="tamper-heading">
      <h2 id="tamper-heading" className="h5">
        Tamper demo
      </h2>
      <p className="text-body-secondary">
        This works on a sandbox copy of the chain held in the worker, never on the real records. Change one block's
        data and verification names that block. Re-mine it and its hash is valid again, but the next block's link
        breaks.
      </p>
      <Form onSubmit={tamper} className="mb-3">
        <Row className="g-2 align-items-end mb-2">
          <Col xs={12} md={5}>
            <Form.Group controlId="tamper-source">
              <Form.Label>Sandbox chain</Form.Label>
              <Form.Select value={source} onChange={(event) => setSource(event.target.value)} disabled={busy !== null}>
                {SOURCES.map((option) => (
                  <option key={option.blocks} value={option.blocks}>
                    {option.label}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Col>
          <Col xs="auto">
            <Button
              variant="secondary"
              disabled={busy !== null}
              onClick={() => void run('reset', () => resetTo(Number(source)), Number(source))}
            >
              Reset sandbox
            </Button>
          </Col>
        </Row>
        <Row className="g-2 align-items-end">
          <Col xs={6} md={2}>
            <Form.Group controlId="tamper-block">
              <Form.Label>Block number</Form.Label>
              <Form.Control
                type="number"
                min={0}
                max={Math.max(0, height - 1)}
                value={index}
                onChange={(event) => setIndex(event.target.value)}
                isInvalid={height > 0 && !targetValid}
              />
              <Form.Control.Feedback type="invalid">From 0 to {Math.max(0, height - 1)}</Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col xs={6} md={4}>
            <Form.Group controlId="tamper-title">
              <Form.Label>New record title</Form.Label>
              <Form.Control
                value={title}
                onChange={(event) => setTitle(event.target.value)}
                isInvalid={titleProblem !== null}
                aria-invalid={titleProblem !== null || undefined}
                aria-describedby={titleProblem ? 'tamper-title-problem' : undefined}
              />
              <Form.Control.Feedback type="invalid" id="tamper-title-problem">
                {titleProblem}
              </Form.Control.Feedback>
            </Form.Group>
          </Col>
          <Col xs="auto">
            <Button type="submit" variant="danger" disabled={busy !== null || !targetValid || !titleReady}>
              Change block data
            </Button>
          </Col>
          <Col xs="auto">
            <Button
              variant="warning"
              disabled={busy !== null || !targetValid}
              onClick={() => void run('remine', () => service.sandboxRemine(target), target)}
            >
              Re-mine block
            </Button>
          </Col>
          {busy && (
            <Col xs="auto">
              <Spinner animation="border" size="sm" role="status">
                <span className="visually-hidden">Working…</span>
              </Spinner>
            </Col>
          )}
        </Row>
      </Form>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      <p role="status" className="small">
        {note}
      </p>
      {status && (
        <>
          <VerificationSummary
            status={status}
            onShowInvalid={(invalid) => setScrollTo((previous) => ({ index: invalid, request: (previous?.request ?? 0) + 1 }))}
          />
          <BlockTable
            caption="Sandbox chain, newest block first"
            total={status.height}
            load={loadBlocks}
            generation={generation}
            invalid={status.firstInvalid}
            scrollToIndex={scrollTo}
          />
        </>
      )}
    </section>
  );
}
