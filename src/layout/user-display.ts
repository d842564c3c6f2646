export const ROLE_LABELS = { patient: 'Patient', doctor: 'Doctor' } as const;

// 'Dr. Emily Carter' -> 'EC'
export function initials(name: string): string {
  const words = name.replace(/^Dr\.\s+/, '').split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}
