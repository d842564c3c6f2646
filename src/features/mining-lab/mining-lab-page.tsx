import { startTransition, useEffect, useRef, useState, type FormEvent } from 'react';
import { proxy } from 'comlink';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import type { MiningProgress, MiningResult } from '../../../workers/api';
import type { Block } from '../../../workers/core/types';
import { errorName, userMessage } from '../../ledger/error-message';
import { useLedger } from '../../ledger/use-ledger';
import { FrameMonitor } from './frame-monitor';
import { HeartbeatPanel } from './heartbeat-panel';
import { expectedAttempts, formatCount, formatSeconds } from './lab-format';
import { PLACE_PHRASES, type LabRun, type MiningPlace } from './lab-run';
import { observeLongTasks } from './long-task-monitor';
import { mineOnMainThread } from './main-thread-miner';
import { MiningProgressPanel } from './mining-progress-panel';
import { ParallelMiner, parallelWorkerCount } from './parallel-miner';
import { ProgressStore } from './progress-store';
import { RunHistory } from './run-history';
import './mining-lab.css';

const DIFFICULTIES = [1, 2, 3, 4, 5, 6] as const;
const MAX_BLOCKS = 100;

interface ActiveRun {
  jobId: string;
  place: MiningPlace;
  difficulty: number;
  cancelling: boolean;
}

let jobCounter = 0;
function newJobId(): string {
  jobCounter += 1;
  return `lab-${Date.now().toString(36)}-${jobCounter}`;
}

function describeEnd(result: MiningResult, place: MiningPlace, cancelLatencyMs: number | null): string {
  const where = PLACE_PHRASES[place];
  if (result.cancelled) {
    const latency = cancelLatencyMs === null ? '' : `: mining stopped ${Math.round(cancelLatencyMs)} ms after Cancel`;
    return `Cancelled after ${result.blocksMined} of ${result.blocksTotal} blocks ${where}${latency}.`;
  }
  return `Mined ${result.blocksMined} ${result.blocksMined === 1 ? 'block' : 'blocks'} ${where} in ${formatSeconds(result.elapsedMs)}.`;
}

// Proof-of-work mining in the worker beside the same work on the main thread, with a heartbeat that shows the cost.
export function MiningLabPage() {
  const service = useLedger();
  const [monitor] = useState(() => new FrameMonitor());
  const [difficulty, setDifficulty] = useState('4');
  const [blocks, setBlocks] = useState('5');
  const [onMainThread, setOnMainThread] = useState(false);
  const [inParallel, setInParallel] = useState(false);
  const [workerCount] = useState(parallelWorkerCount);
  const parallel = useRef<ParallelMiner | null>(null);
  const parallelTip = useRef<{ block: Block | null }>({ block: null });

  const [active, setActive] = useState<ActiveRun | null>(null);
  const [progress] = useState(() => new ProgressStore());
  const [runs, setRuns] = useState<LabRun[]>([]);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const cancelAt = useRef<number | null>(null);
  const running = useRef<ActiveRun | null>(null);
  const mainTip = useRef<{ block: Block | null }>({ block: null });

  // leaving the page stops its run: the ledger worker's job by id (the worker stays), the lab's own workers with the page
  useEffect(
    () => () => {
      cancelAt.current ??= performance.now();
      if (running.current?.place === 'worker') service.cancelJob(running.current.jobId).catch(() => undefined);
      parallel.current?.terminate();
      parallel.current = null;
    },
    [service],
  );

  const blockCount = Number(blocks);
  const blocksValid = Number.isInteger(blockCount) && blockCount >= 1 && blockCount <= MAX_BLOCKS;

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (running.current || !blocksValid) return;
    const run: ActiveRun = {
      jobId: newJobId(),
      place: onMainThread ? 'main' : inParallel ? 'parallel' : 'worker',
      difficulty: Number(difficulty),
      cancelling: false,
    };
    cancelAt.current = null;
    running.current = run;
    // a transition: React renders the page in slices, so the click is not one long task on a slow device
    startTransition(() => {
      setActive(run);
      setError('');
      setNote(
        `Mining ${blockCount} ${blockCount === 1 ? 'block' : 'blocks'} at difficulty ${run.difficulty} ${PLACE_PHRASES[run.place]}…`,
      );
    });
    // the job starts in a task of its own, after the click's
    await new Promise((resolve) => setTimeout(resolve, 0));
    progress.set({ jobId: run.jobId, blocksMined: 0, blocksTotal: blockCount, attempts: 0, elapsedMs: 0, hashRate: 0 });
    monitor.beginWindow();
    const stopLongTasks = observeLongTasks();
    let result: MiningResult | null = null;
    try {
      const job = {
        jobId: run.jobId,
        difficulty: run.difficulty,
        blocks: blockCount,
        onProgress: progress.set,
        isCancelled: () => cancelAt.current !== null,
      };
      if (run.place === 'worker') {
        result = await service.mineSandbox(
          run.jobId,
          run.difficulty,
          blockCount,
          proxy((update: MiningProgress) => progress.set(update)),
        );
      } else if (run.place === 'parallel') {
        parallel.current ??= new ParallelMiner(workerCount);
        result = await parallel.current.mine(job, parallelTip.current);
      } else {
        result = await mineOnMainThread(job, mainTip.current);
      }
    } catch (caught) {
      if (errorName(caught) !== 'CancelledError') setError(userMessage(caught, 'Mining failed. Try again.'));
    }
    running.current = null;
    const cancelLatencyMs = cancelAt.current === null ? null : performance.now() - cancelAt.current;
    const frames = await monitor.endWindow();
    const longTasks = stopLongTasks?.() ?? null;
    if (!result) {
      const cancelled = cancelAt.current !== null;
      startTransition(() => {
        setActive(null);
        setNote(cancelled ? 'Cancelled.' : '');
      });
      return;
    }
    progress.set(result);
    const ended = describeEnd(result, run.place, cancelLatencyMs);
    const finished: LabRun = {
      id: run.jobId,
      place: run.place,
      difficulty: run.difficulty,
      blocksTotal: result.blocksTotal,
      blocksMined: result.blocksMined,
      attempts: result.attempts,
      elapsedMs: result.elapsedMs,
      hashRate: result.hashRate,
      maxFrameGapMs: frames.maxGapMs,
      longTasks,
      cancelled: result.cancelled,
      cancelLatencyMs,
    };
    startTransition(() => {
      setActive(null);
      setNote(ended);
      setRuns((previous) => [finished, ...previous]);
    });
  };

  const cancel = () => {
    if (!active || active.cancelling) return;
    cancelAt.current = performance.now();
    setActive({ ...active, cancelling: true });
    if (active.place === 'worker') {
      service.cancelJob(active.jobId).catch((caught: unknown) => setError(userMessage(caught, 'Cancel failed.')));
    }
  };

  return (
    <>
      <h1 className="page-title">Mining Lab</h1>
      <p className="text-body-secondary">
        Mine proof-of-work blocks into the sandbox chain in the worker and watch the heartbeat keep ticking. Switch to the main
        thread to see the freeze the worker avoids, or split the nonce search across several workers.
      </p>
      <Row className="g-3 mb-3">
        <Col lg={8}>
          <Card className="h-100">
            <Card.Body>
              <Card.Title as="h2" className="h5">
                Mine blocks
              </Card.Title>
              <Form onSubmit={(event) => void start(event)}>
                {/* tops aligned: the limit under the Blocks box does not push the buttons down */}
                <Row className="g-2 align-items-start mb-2">
                  <Col xs={12}>
                    <Form.Group controlId="lab-difficulty">
                      <Form.Label>Difficulty (leading zeros)</Form.Label>
                      <Form.Select
                        value={difficulty}
                        onChange={(event) => setDifficulty(event.target.value)}
                        disabled={active !== null}
                      >
                        {DIFFICULTIES.map((value) => (
                          <option key={value} value={value}>
                            {value} (~{formatCount(expectedAttempts(value))} tries a block)
                          </option>
                        ))}
                      </Form.Select>
                    </Form.Group>
                  </Col>
                  <Col xs="auto">
                    <Form.Group controlId="lab-blocks" className="lab-blocks">
                      <Form.Label>Blocks</Form.Label>
                      <Form.Control
                        type="number"
                        min={1}
                        max={MAX_BLOCKS}
                        value={blocks}
                        onChange={(event) => setBlocks(event.target.value)}
                        isInvalid={!blocksValid}
                        disabled={active !== null}
                      />
                      <Form.Control.Feedback type="invalid" className="text-nowrap">
                        From 1 to {MAX_BLOCKS}
                      </Form.Control.Feedback>
                    </Form.Group>
                  </Col>
                  {/* Start and Cancel stay side by side: they wrap together, never apart */}
                  <Col xs="auto" className="lab-actions d-flex gap-2">
                    <Button type="submit" disabled={active !== null || !blocksValid}>
                      Start mining
                    </Button>
                    {/* red only while there is something to stop */}
                    <Button
                      variant={active === null ? 'outline-secondary' : 'danger'}
                      onClick={cancel}
                      disabled={active === null || active.cancelling}
                    >
                      Cancel
                    </Button>
                  </Col>
                </Row>
                <Form.Check
                  type="switch"
                  id="lab-main-thread"
                  label="Mine on the main thread instead (the page freezes)"
                  checked={onMainThread}
                  onChange={(event) => {
                    setOnMainThread(event.target.checked);
                    if (event.target.checked) setInParallel(false);
                  }}
                  disabled={active !== null}
                />
                <Form.Check
                  type="switch"
                  id="lab-parallel"
                  label={`Split the nonce search across ${workerCount} workers (one per CPU core)`}
                  checked={inParallel}
                  onChange={(event) => {
                    setInParallel(event.target.checked);
                    if (event.target.checked) setOnMainThread(false);
                  }}
                  disabled={active !== null}
                />
                {onMainThread && (
                  <Form.Text className="d-block text-warning-emphasis">
                    Each block is one long task: the page cannot paint or respond until it is found, and Cancel takes effect only
                    between blocks.
                  </Form.Text>
                )}
              </Form>
              <MiningProgressPanel store={progress} place={active?.place ?? null} />
              <p role="status" className="mb-0" data-testid="lab-status">
                {note}
              </p>
              {error && (
                <Alert variant="danger" className="mt-2 mb-0" role="alert">
                  {error}
                </Alert>
              )}
            </Card.Body>
          </Card>
        </Col>
        <Col lg={4}>
          <HeartbeatPanel monitor={monitor} />
        </Col>
      </Row>
      <Card>
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Runs
          </Card.Title>
          <RunHistory runs={runs} />
        </Card.Body>
      </Card>
    </>
  );
}
