import type { AccessLevel } from '../../workers/core/types';

// The two levels of emergency access and of a share, as both forms explain them (same scope: workers/core/access.ts).
export const ACCESS_LEVELS: readonly { value: AccessLevel; label: string; description: string }[] = [
  { value: 'basic', label: 'Basic', description: 'basic info and recent records' },
  { value: 'full', label: 'Full', description: 'complete history' },
];

export function accessLevelLabel(level: AccessLevel): string {
  return ACCESS_LEVELS.find((option) => option.value === level)?.label ?? level;
}

export function accessLevelText(level: AccessLevel): string {
  const option = ACCESS_LEVELS.find((candidate) => candidate.value === level);
  return option ? `${option.label}: ${option.description}` : level;
}
