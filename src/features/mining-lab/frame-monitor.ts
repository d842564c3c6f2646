// Watches the main thread from requestAnimationFrame: a blocked main thread shows up as one long gap between frames.
export type FrameListener = (gapMs: number, now: number) => void;

export interface FrameWindow {
  maxGapMs: number;
  frames: number;
}

export class FrameMonitor {
  private readonly listeners = new Set<FrameListener>();
  private handle = 0;
  private last = 0;
  private window: FrameWindow | null = null;

  subscribe(listener: FrameListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.window === null) this.stop();
    };
  }

  // Starts collecting the longest frame gap until endWindow().
  beginWindow(): void {
    this.window = { maxGapMs: 0, frames: 0 };
    if (this.handle === 0) this.start();
  }

  // Waits for one more frame so that a freeze which ends the run is counted, then returns the window.
  async endWindow(): Promise<FrameWindow> {
    await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const result = this.window ?? { maxGapMs: 0, frames: 0 };
    this.window = null;
    if (this.listeners.size === 0) this.stop();
    return result;
  }

  private start(): void {
    this.last = performance.now();
    const tick = (now: number) => {
      const gap = now - this.last;
      this.last = now;
      if (this.window) {
        this.window.frames += 1;
        if (gap > this.window.maxGapMs) this.window.maxGapMs = gap;
      }
      for (const listener of this.listeners) listener(gap, now);
      this.handle = requestAnimationFrame(tick);
    };
    this.handle = requestAnimationFrame(tick);
  }

  private stop(): void {
    cancelAnimationFrame(this.handle);
    this.handle = 0;
  }
}
