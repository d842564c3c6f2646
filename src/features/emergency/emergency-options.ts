import { EMERGENCY_DURATIONS } from '../../../workers/core/constants';
import type { AccessLevel } from '../../../workers/core/types';

export const ACCESS_LEVELS: readonly { value: AccessLevel; label: string; description: string }[] = [
  { value: 'basic', label: 'Basic', description: 'basic info and recent records' },
  { value: 'full', label: 'Full', description: 'complete history' },
];

export function durationLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

export const DURATION_OPTIONS = EMERGENCY_DURATIONS.map((minutes) => ({ value: minutes, label: durationLabel(minutes) }));
