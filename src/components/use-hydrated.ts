import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

// False while React hydrates the build's pre-rendered HTML (and in the pre-render itself), true from the next render
// on, and at once in a fresh render: a pre-rendered control stays disabled until it can answer.
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
