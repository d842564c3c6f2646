import { SHARE_DURATIONS_DAYS } from '../../../workers/core/constants';

export const DEFAULT_SHARE_DAYS = 7;

export function shareDurationLabel(days: number): string {
  if (days === 0) return 'Until revoked';
  return days === 1 ? '1 day' : `${days} days`;
}

export const SHARE_DURATION_OPTIONS = SHARE_DURATIONS_DAYS.map((days) => ({ value: days, label: shareDurationLabel(days) }));
