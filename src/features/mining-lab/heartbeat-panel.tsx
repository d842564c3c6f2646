import { memo, useEffect, useRef } from 'react';
import Card from 'react-bootstrap/Card';
import type { FrameMonitor } from './frame-monitor';

const HISTORY = 120; // frames in the meter: about 2 s at 60 Hz
const METER_CEILING_MS = 100; // a bar this long fills the meter
const SMOOTH_MS = 20; // a frame under this is on time at 60 Hz
const FROZEN_MS = 50; // the long-task limit: a user notices the stall
const TEXT_EVERY_MS = 250; // the figures are rewritten four times a second
const DRAW_EVERY_MS = 100; // the meter is redrawn at most 10 times a second: each redraw costs a paint and a commit

function barColor(gap: number): string {
  if (gap < SMOOTH_MS) return '#198754';
  if (gap < FROZEN_MS) return '#fd7e14';
  return '#dc3545';
}

const two = (value: number) => String(value).padStart(2, '0');

// HH:MM:SS.t by hand: Intl formatting on every frame costs more than the rest of the meter
function clockText(date: Date): string {
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${Math.floor(date.getMilliseconds() / 100)}`;
}

// A clock and a frame-time meter driven by requestAnimationFrame: both stop when the main thread is busy.
export const HeartbeatPanel = memo(function HeartbeatPanel({ monitor }: { monitor: FrameMonitor }) {
  const clockRef = useRef<HTMLSpanElement>(null);
  const frameRef = useRef<HTMLSpanElement>(null);
  const worstRef = useRef<HTMLSpanElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const gaps: number[] = [];
    let textAt = 0;
    let drawnAt = 0;
    let shownTenth = 0;
    // DOM writes, not React state, and work only when something visible changes: the meter must cost
    // almost nothing per frame, or it would itself slow the page it watches
    return monitor.subscribe((gap, now) => {
      gaps.push(gap);
      if (gaps.length > HISTORY) gaps.shift();
      const stalled = gap >= FROZEN_MS;
      const wallClock = Date.now();
      const tenth = Math.floor(wallClock / 100);
      // only when the tenths change: every text change costs a layout of its box
      if (tenth !== shownTenth && clockRef.current) {
        shownTenth = tenth;
        clockRef.current.textContent = clockText(new Date(wallClock));
      }
      if (now - textAt >= TEXT_EVERY_MS || stalled) {
        textAt = now;
        const worst = Math.max(...gaps);
        if (frameRef.current) frameRef.current.textContent = `${gap.toFixed(1)} ms`;
        if (worstRef.current) {
          worstRef.current.textContent = `${worst.toFixed(0)} ms`;
          worstRef.current.classList.toggle('text-danger', worst >= FROZEN_MS);
          worstRef.current.classList.toggle('text-success', worst < FROZEN_MS);
        }
      }
      const canvas = canvasRef.current;
      const context = canvas?.getContext('2d');
      if (!canvas || !context || (now - drawnAt < DRAW_EVERY_MS && !stalled)) return;
      drawnAt = now;
      const barWidth = canvas.width / HISTORY;
      context.clearRect(0, 0, canvas.width, canvas.height);
      const limitY = canvas.height - (FROZEN_MS / METER_CEILING_MS) * canvas.height;
      context.fillStyle = '#adb5bd';
      context.fillRect(0, limitY, canvas.width, 1);
      gaps.forEach((value, index) => {
        const height = (Math.min(value, METER_CEILING_MS) / METER_CEILING_MS) * canvas.height;
        context.fillStyle = barColor(value);
        context.fillRect(index * barWidth, canvas.height - height, Math.max(1, barWidth - 1), height);
      });
    });
  }, [monitor]);

  return (
    <Card className="h-100">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Main-thread heartbeat
        </Card.Title>
        <p className="small text-body-secondary mb-2">
          The clock and the meter are drawn on every animation frame. If the page freezes, they stop.
        </p>
        <p className="display-6 font-monospace mb-2">
          <span className="visually-hidden">Clock: </span>
          <span ref={clockRef} className="lab-live lab-live-clock">
            --:--:--.-
          </span>
        </p>
        <canvas
          ref={canvasRef}
          width={360}
          height={60}
          className="w-100 border rounded bg-body-tertiary"
          role="img"
          aria-label="Frame time meter: one bar per frame, red above 50 ms"
        />
        <dl className="row small mb-0 mt-2">
          <dt className="col-7">Last frame</dt>
          <dd className="col-5 mb-0 font-monospace">
            <span ref={frameRef} className="lab-live lab-live-short">
              –
            </span>
          </dd>
          <dt className="col-7">Worst frame, last 2 s</dt>
          <dd className="col-5 mb-0 font-monospace">
            <span ref={worstRef} className="lab-live lab-live-short fw-semibold">
              –
            </span>
          </dd>
        </dl>
      </Card.Body>
    </Card>
  );
});
