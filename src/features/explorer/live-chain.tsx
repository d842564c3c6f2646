import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { proxy } from 'comlink';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import type { BlockSummary, ChainStatus, MiningProgress, PeerName, RemineResult, SandboxBlock } from '../../../workers/api';
import { userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { BlockEditor, type BlockFields } from './block-editor';
import { BlockTable } from './block-table';
import { formatDuration, formatHashRate } from './remine-progress';
import { useLiveEdit, type LiveAnswer } from './use-live-edit';
import { VerificationSummary } from './verification-summary';
import { formatNumber } from '../../components/format';

// 0 copies the records chain; the others build a demo chain of that many blocks in the worker
const SOURCES = [
  { blocks: 0, label: 'Copy of the records chain' },
  { blocks: 20, label: 'Demo chain, 20 blocks' },
  { blocks: 1000, label: 'Demo chain, 1,000 blocks' },
  { blocks: 10000, label: 'Demo chain, 10,000 blocks' },
] as const;

interface Job {
  id: string;
  from: number;
  progress: MiningProgress | null;
  cancelling: boolean;
}

interface TableView {
  generation: number; // bumped when blocks changed beyond what the overrides say: pages are fetched again
  overrides: ReadonlyMap<number, BlockSummary>; // blocks the live edits changed since the pages were fetched
}

const isUnsigned = (block: BlockSummary | undefined) =>
  block !== undefined && !block.restricted && block.signature === 'unsigned';

// A re-mined block whose signature still fails, where verification stops: only its author's key could sign it again.
const unforgeable = (block: SandboxBlock, status: ChainStatus) =>
  !block.restricted && block.signature === 'fails' && status.firstInvalid?.index === block.index;
const signatureStays = (index: number) =>
  ` Block #${index}'s signature still fails: re-mining cannot forge its author's signature, so the chain stays invalid at block #${index}.`;

let jobCounter = 0;
function newJobId(): string {
  jobCounter += 1;
  return `remine-${Date.now().toString(36)}-${jobCounter}`;
}

export interface LiveChainProps {
  peer: PeerName;
  caption: string; // names the chain in the table's caption and the editor's heading
  prepare: () => Promise<void>; // resolves once the sandbox to show exists
  chain: number; // the chain chosen (0: the copy of the records chain, else a demo chain's blocks)
  onChainChange: (blocks: number) => void;
  onChanged?: () => void; // after an edit, a re-mine or a reset
}

// A peer's sandbox chain in the worker, live: open a block and type, and its hash, and the validity of it and
// of every later block, follow each keystroke; re-mine one block or every block from it to the tip.
export function LiveChain({ peer, caption, prepare, chain, onChainChange, onChanged }: LiveChainProps) {
  const service = useLedger();
  const id = useId();
  const [status, setStatus] = useState<ChainStatus | null>(null);
  const [view, setView] = useState<TableView>({ generation: 0, overrides: new Map() });
  const [open, setOpen] = useState<SandboxBlock | null>(null);
  const [busy, setBusy] = useState<'reset' | 'remine' | 'open' | null>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [note, setNote] = useState('');
  const [lastRun, setLastRun] = useState<RemineResult | null>(null); // the last re-mine's figures, for the bench
  const [error, setError] = useState('');
  const [editError, setEditError] = useState('');
  // a block whose text changed and whose new hash the worker has not answered yet (see `shownInvalid` below)
  const [pending, setPending] = useState<number | null>(null);
  const [scrollTo, setScrollTo] = useState<{ index: number; request: number } | null>(null);
  const [built, setBuilt] = useState<{ done: number; total: number } | null>(null); // a demo chain being built
  const [unsigned, setUnsigned] = useState(false); // its newest block is an unsigned demo block
  const [target, setTarget] = useState('');
  const running = useRef<string | null>(null);
  const changed = useRef(onChanged);

  useEffect(() => {
    changed.current = onChanged;
  });

  const loadBlocks = useCallback((offset: number, limit: number) => service.sandboxPage(offset, limit, peer), [service, peer]);

  const reload = useCallback(async () => {
    const { status: next, blocks } = await service.sandboxPage(0, 1, peer);
    setStatus(next);
    setUnsigned(isUnsigned(blocks[0]));
    setView((previous) => ({ generation: previous.generation + 1, overrides: new Map() }));
    return next;
  }, [service, peer]);

  useEffect(() => {
    let current = true;
    prepare()
      .then(() => service.sandboxPage(0, 1, peer))
      .then(
        (page) => {
          if (!current) return;
          setStatus(page.status);
          setUnsigned(isUnsigned(page.blocks[0]));
        },
        (caught: unknown) => current && setError(userMessage(caught, 'The sandbox could not be prepared.')),
      );
    return () => {
      current = false;
    };
  }, [prepare, service, peer]);

  // leaving the view stops its re-mine in the worker (the worker stays: it holds the chain)
  useEffect(
    () => () => {
      if (running.current) service.cancelJob(running.current).catch(() => undefined);
    },
    [service],
  );

  const onAnswer = useCallback((answer: LiveAnswer) => {
    setPending((index) => (index === answer.block.index ? null : index));
    setStatus(answer.status);
    setView((previous) => {
      const overrides = new Map(previous.overrides).set(answer.block.index, answer.block);
      if (answer.next) overrides.set(answer.next.index, answer.next);
      return { generation: previous.generation, overrides };
    });
    setOpen((shown) => (shown && shown.index === answer.block.index ? answer.block : shown));
    changed.current?.();
  }, []);
  const onEditError = useCallback((caught: unknown) => {
    setPending(null);
    setEditError(userMessage(caught, 'The sandbox could not take that edit.'));
  }, []);
  const sendEdit = useLiveEdit(service, onAnswer, onEditError);

  const openBlock = useCallback(
    async (index: number) => {
      setBusy('open');
      setError('');
      try {
        const block = await service.sandboxBlock(index, peer);
        setEditError('');
        setOpen(block);
        setScrollTo((previous) => ({ index, request: (previous?.request ?? 0) + 1 }));
      } catch (caught) {
        setError(userMessage(caught, 'That block could not be opened.'));
      } finally {
        setBusy(null);
      }
    },
    [service, peer],
  );
  const openFromTable = useCallback((index: number) => void openBlock(index), [openBlock]);

  const build = async (blocks: number) => {
    setBusy('reset');
    setBuilt(blocks > 0 ? { done: 0, total: blocks } : null);
    setNote(''); // the last re-mine's result is not about the chain being built
    setError('');
    setOpen(null);
    setLastRun(null);
    try {
      await service.sandboxReset(
        blocks,
        proxy((progress: MiningProgress) => setBuilt({ done: progress.blocksMined, total: progress.blocksTotal })),
      );
      const next = await reload();
      setNote(
        blocks === 0
          ? 'The sandbox is a fresh copy of the records chain. Peers A, B and C each hold a copy.'
          : `The sandbox is a demo chain of ${formatNumber(next.height)} blocks. Peers A, B and C each hold a copy.`,
      );
      changed.current?.();
    } catch (caught) {
      setError(userMessage(caught, 'The sandbox could not be built. Try again.'));
    } finally {
      setBuilt(null);
      setBusy(null);
    }
  };

  // Runs in the keystroke's own event: the pending mark is rendered with the typed text, in the next frame.
  const edit = (fields: BlockFields) => {
    if (!open) return;
    setEditError('');
    setPending(open.index);
    sendEdit({ peer, index: open.index, ...fields });
  };

  // The re-mined block, as the worker now has it.
  const afterRemine = async (index: number) => {
    await reload();
    const block = await service.sandboxBlock(index, peer);
    setOpen(block);
    changed.current?.();
    return block;
  };

  const remine = async () => {
    if (!open) return;
    const index = open.index;
    setBusy('remine');
    setError('');
    setLastRun(null);
    try {
      const next = await service.sandboxRemine(index, peer);
      const block = await afterRemine(index);
      setNote(
        `Block #${index} was re-mined: a new nonce makes its hash meet the difficulty again.` +
          (unforgeable(block, next)
            ? signatureStays(index)
            : next.firstInvalid
              ? ` Verification now stops at block #${next.firstInvalid.index}.`
              : ' The chain is valid.'),
      );
    } catch (caught) {
      setError(userMessage(caught, 'The block could not be re-mined.'));
    } finally {
      setBusy(null);
    }
  };

  const remineFrom = async () => {
    if (!open || running.current) return;
    const from = open.index;
    const jobId = newJobId();
    running.current = jobId;
    setJob({ id: jobId, from, progress: null, cancelling: false });
    setError('');
    setNote('');
    setLastRun(null);
    try {
      const result = await service.sandboxRemineFrom(
        jobId,
        from,
        peer,
        proxy((progress: MiningProgress) => setJob((shown) => (shown?.id === progress.jobId ? { ...shown, progress } : shown))),
      );
      const last = from + result.blocksMined - 1;
      setLastRun(result);
      const block = await afterRemine(from);
      setNote(
        result.cancelled
          ? `Cancelled after ${result.blocksMined} of ${result.blocksTotal} blocks: the blocks from #${from + result.blocksMined} on still need re-mining.`
          : `Re-mined ${formatNumber(result.blocksMined)} ${result.blocksMined === 1 ? 'block' : 'blocks'} (#${from} to #${last}) ` +
              `in ${formatDuration(result.elapsedMs)} at ${formatHashRate(result.hashRate)}.` +
              (unforgeable(block, result.status) ? signatureStays(from) : ''),
      );
    } catch (caught) {
      setError(userMessage(caught, 'The blocks could not be re-mined.'));
    } finally {
      running.current = null;
      setJob(null);
    }
  };

  const cancel = () => {
    if (!job || job.cancelling) return;
    setJob({ ...job, cancelling: true });
    service.cancelJob(job.id).catch((caught: unknown) => setError(userMessage(caught, 'Cancel failed.')));
  };

  const height = status?.height ?? 0;
  const wanted = Number(target);
  const targetValid = target.trim() !== '' && Number.isInteger(wanted) && wanted >= 0 && wanted < height;
  const openTarget = (event: FormEvent) => {
    event.preventDefault();
    if (targetValid) void openBlock(wanted);
  };
  const locked = busy !== null || job !== null;
  // Changed data means a changed hash, so the next block's link is broken at once: the edited block and every
  // later one are shown invalid in the keystroke's frame. Chromium holds a worker's reply back until the frame
  // after a keystroke (DeferRendererTasksAfterInput), so the new hash and the exact reason come one frame later.
  const firstInvalid = status?.firstInvalid;
  const shownInvalid =
    pending !== null && (!firstInvalid || pending < firstInvalid.index)
      ? { index: pending, reason: 'its data changed: recomputing its hash' }
      : firstInvalid;

  return (
    <>
      <Row className="g-2 align-items-end mb-3">
        <Col xs={12} md="auto">
          <Form.Group controlId={`${id}-source`}>
            <Form.Label>Sandbox chain</Form.Label>
            <Form.Select
              value={String(chain)}
              onChange={(event) => {
                const blocks = Number(event.target.value);
                onChainChange(blocks);
                void build(blocks); // choosing a chain builds it
              }}
              disabled={locked}
            >
              {SOURCES.map((option) => (
                <option key={option.blocks} value={option.blocks}>
                  {option.label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col xs="auto">
          <Button variant="secondary" disabled={locked} onClick={() => void build(chain)}>
            Rebuild this chain
          </Button>
        </Col>
        <Col xs="auto" className="ms-md-auto">
          <Form onSubmit={openTarget} className="d-flex align-items-end gap-2">
            <Form.Group controlId={`${id}-block`}>
              <Form.Label>Block number</Form.Label>
              <Form.Control
                type="number"
                min={0}
                max={Math.max(0, height - 1)}
                value={target}
                onChange={(event) => setTarget(event.target.value)}
                isInvalid={target !== '' && height > 0 && !targetValid}
                className="sandbox-block-number"
              />
            </Form.Group>
            <Button type="submit" variant="primary" disabled={locked || !targetValid}>
              Open block
            </Button>
          </Form>
        </Col>
        {busy && busy !== 'open' && (
          <Col xs="auto">
            <Spinner animation="border" size="sm" role="status">
              <span className="visually-hidden">Working…</span>
            </Spinner>
          </Col>
        )}
      </Row>
      {built && (
        <div className="mb-3" data-building="true">
          {/* stacked form: only then does react-bootstrap put the label on the element with role progressbar */}
          <ProgressBar>
            <ProgressBar
              now={(built.done / built.total) * 100}
              label={`${built.done} of ${built.total}`}
              visuallyHidden
              aria-label="Demo blocks built"
            />
          </ProgressBar>
          <p className="small mt-1 mb-0">
            Building the demo chain: {formatNumber(built.done)} of {formatNumber(built.total)} blocks
          </p>
        </div>
      )}
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      <p
        role="status"
        className="small"
        data-remine-blocks={lastRun?.blocksMined}
        data-remine-attempts={lastRun?.attempts}
        data-remine-ms={lastRun?.elapsedMs}
      >
        {note}
      </p>
      {status && (
        <>
          <VerificationSummary status={status} unsigned={unsigned} onShowInvalid={(index) => void openBlock(index)} />
          {open && (
            <BlockEditor
              key={`${peer}:${open.index}`}
              block={open}
              status={status}
              invalid={shownInvalid}
              heading={`${caption}: block #${open.index}`}
              job={job && { from: job.from, progress: job.progress, cancelling: job.cancelling }}
              busy={busy === 'remine'}
              error={editError}
              onEdit={edit}
              onRemine={() => void remine()}
              onRemineFrom={() => void remineFrom()}
              onCancel={cancel}
              onClose={() => setOpen(null)}
            />
          )}
          <p className="small text-body-secondary">
            {formatNumber(height)} {height === 1 ? 'block' : 'blocks'}, newest first. Open a block and edit it: its hash is
            recomputed as you type, and it and every later block are checked again.
          </p>
          <BlockTable
            caption={`${caption}, newest block first`}
            total={height}
            load={loadBlocks}
            generation={view.generation}
            invalid={shownInvalid}
            scrollToIndex={scrollTo}
            checks
            overrides={view.overrides}
            openIndex={open?.index ?? null}
            onOpen={openFromTable}
          />
        </>
      )}
    </>
  );
}
