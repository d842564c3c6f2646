// Number formats of the lab's figures, in the browser's locale as the rest of the app.
import { formatNumber } from '../../components/format';

export function formatHashRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M hashes/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k hashes/s`;
  return `${Math.round(perSecond)} hashes/s`;
}

export function formatCount(count: number): string {
  return formatNumber(Math.round(count));
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export function formatMs(ms: number): string {
  return `${Math.round(ms)} ms`;
}

// Expected attempts per block at a difficulty: 16 to the power of the leading zero hex digits.
export function expectedAttempts(difficulty: number): number {
  return 16 ** difficulty;
}
