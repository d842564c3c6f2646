import type { MiningProgress } from '../../../workers/api';

// Live progress outside React state: an update re-renders only the progress panel, not the whole lab.
export class ProgressStore {
  private value: MiningProgress | null = null;
  private readonly listeners = new Set<() => void>();

  readonly get = (): MiningProgress | null => this.value;

  readonly set = (value: MiningProgress | null): void => {
    this.value = value;
    for (const listener of this.listeners) listener();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
