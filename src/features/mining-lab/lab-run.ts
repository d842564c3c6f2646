import type { LongTaskWindow } from './long-task-monitor';

export type MiningPlace = 'worker' | 'parallel' | 'main';

// Where a run mines, as the lab's text says it.
export const PLACE_PHRASES: Record<MiningPlace, string> = {
  worker: 'in the worker',
  parallel: 'in parallel workers',
  main: 'on the main thread',
};

// One finished run of the lab, as the comparison table shows it.
export interface LabRun {
  id: string;
  place: MiningPlace;
  difficulty: number;
  blocksTotal: number;
  blocksMined: number;
  attempts: number;
  elapsedMs: number;
  hashRate: number;
  maxFrameGapMs: number;
  longTasks: LongTaskWindow | null; // null where the browser has no long-task timing
  cancelled: boolean;
  cancelLatencyMs: number | null; // from the Cancel click to the run's end
}

export const PLACE_LABELS: Record<MiningPlace, string> = {
  worker: 'Worker',
  parallel: 'Parallel workers',
  main: 'Main thread',
};
