import type { ChangeKind } from '../../workers/api';

// Signature progress and sync state are left out: they arrive often and only the screens that show them name them.
export const ALL_CHANGE_KINDS: readonly ChangeKind[] = ['chain', 'records', 'grants', 'access', 'reset'];

// How many changes of each kind the screens have been told about; a query refetches when one it reads moves.
export type LedgerVersions = Readonly<Record<ChangeKind, number>>;

const INITIAL_VERSIONS: LedgerVersions = {
  chain: 0,
  records: 0,
  grants: 0,
  access: 0,
  signatures: 0,
  sync: 0,
  'signed-out': 0,
  reset: 0,
};

// One number that moves whenever any of `kinds` does; a reset always counts, since it replaces everything.
export function versionOf(versions: LedgerVersions, kinds: readonly ChangeKind[]): number {
  return kinds.reduce((sum, kind) => (kind === 'reset' ? sum : sum + versions[kind]), versions.reset);
}

// Outside React state, so a notice reaches only the screens that read its kinds: the service's context never changes.
export interface LedgerVersionStore {
  versions: () => LedgerVersions;
  // `listener` runs after a bump of one of `kinds` or a reset, never for other kinds
  subscribe: (kinds: readonly ChangeKind[], listener: () => void) => () => void;
  bump: (kinds: ReadonlySet<ChangeKind>) => void;
}

export function createVersionStore(): LedgerVersionStore {
  const listeners = new Set<{ kinds: readonly ChangeKind[]; listener: () => void }>();
  let versions = INITIAL_VERSIONS;
  return {
    versions: () => versions,
    subscribe(kinds, listener) {
      const entry = { kinds, listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    bump(kinds) {
      const next = { ...versions };
      for (const kind of kinds) if (kind in next) next[kind] += 1;
      versions = next;
      for (const entry of [...listeners]) {
        if (kinds.has('reset') || entry.kinds.some((kind) => kinds.has(kind))) entry.listener();
      }
    },
  };
}
