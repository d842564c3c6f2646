// 'Dr. Emily Carter' -> 'EC'
export function initials(name: string): string {
  const words = name
    .replace(/^Dr\.\s+/, '')
    .split(/\s+/)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

// A round badge with a person's initials; decorative, the name is always written beside it.
export function InitialsAvatar({ name, soft = false }: { name: string; soft?: boolean }) {
  return (
    <span className={soft ? 'avatar avatar-soft' : 'avatar'} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
