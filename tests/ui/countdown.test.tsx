import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from '../../src/components/countdown';
import { formatRemaining } from '../../src/components/format';

const START = new Date('2025-03-01T10:00:00.000Z').getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Countdown', () => {
  it('counts down in minutes and seconds: 60:00, 59:59, 59:58', () => {
    render(<Countdown expiresAt={new Date(START + 60 * 60_000).toISOString()} />);
    expect(screen.getByRole('timer')).toHaveTextContent('60:00');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent('59:59');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent('59:58');
  });

  it('follows the clock, not the number of ticks, when timers were held back', () => {
    render(<Countdown expiresAt={new Date(START + 60 * 60_000).toISOString()} />);
    vi.setSystemTime(START + 30_500); // the tab slept for 30.5 s: no tick ran
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent('59:29');
  });

  it('calls onExpire once when it reaches 00:00, not before', () => {
    const onExpire = vi.fn();
    render(<Countdown expiresAt={new Date(START + 3000).toISOString()} onExpire={onExpire} />);
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByRole('timer')).toHaveTextContent('00:01');
    expect(onExpire).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('timer')).toHaveTextContent('00:00');
    act(() => vi.advanceTimersByTime(10_000));
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('expires at once when the time is already over', () => {
    const onExpire = vi.fn();
    render(<Countdown expiresAt={new Date(START - 1).toISOString()} onExpire={onExpire} />);
    expect(screen.getByRole('timer')).toHaveTextContent('00:00');
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('shows hours once over an hour (4 hours as 4:00:00, not 240:00), an hour as 60:00, and rounds partial seconds up', () => {
    expect(formatRemaining(240 * 60_000)).toBe('4:00:00');
    expect(formatRemaining(240 * 60_000 - 1000)).toBe('3:59:59');
    expect(formatRemaining(60 * 60_000 + 1)).toBe('1:00:01');
    expect(formatRemaining(60 * 60_000)).toBe('60:00');
    expect(formatRemaining(59_001)).toBe('01:00');
    expect(formatRemaining(-5)).toBe('00:00');
  });
});
