import { EMERGENCY_DURATIONS } from '../../../workers/core/constants';

export function durationLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

export const DURATION_OPTIONS = EMERGENCY_DURATIONS.map((minutes) => ({ value: minutes, label: durationLabel(minutes) }));
