import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatRemaining } from './format';

interface CountdownProps {
  expiresAt: string; // ISO 8601
  onExpire?: () => void;
  className?: string;
  describe?: (remainingMs: number) => ReactNode; // a caption that follows the time left (e.g. its units)
}

function remainingMs(expiresAt: string): number {
  return Math.max(0, Date.parse(expiresAt) - Date.now());
}

// Recomputed from the clock on every tick (no drift); each tick lands when the shown second changes.
export function Countdown({ expiresAt, onExpire, className, describe }: CountdownProps) {
  const [remaining, setRemaining] = useState(() => remainingMs(expiresAt));
  const onExpireRef = useRef(onExpire);

  useEffect(() => {
    onExpireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const left = remainingMs(expiresAt);
      setRemaining(left);
      if (left <= 0) {
        onExpireRef.current?.();
        return;
      }
      timer = setTimeout(tick, left % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [expiresAt]);

  return (
    <>
      <span className={className} role="timer">
        {formatRemaining(remaining)}
      </span>
      {describe?.(remaining)}
    </>
  );
}
