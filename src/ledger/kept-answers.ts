// The last answer of each named query with the ledger version it was asked at: a screen shown again while nothing it
// reads has changed shows it at once, and a first screen whose answer was asked for before React ran
// (src/start/first-data.ts) renders with it; either screen asks once more behind it (src/ledger/use-ledger-query.ts).
// Answers are kept for the signed-in user only: the session says whose they are (keepFor) before any screen of theirs
// renders, and a reset or a sign-out by the worker empties them (src/ledger/ledger-changes.ts).
export interface KeptAnswers {
  // the answer kept for `key` at `version`, asked for now if there is none (or it failed, or `fresh` is asked)
  answer: <T>(key: string, version: number, load: () => Promise<T>, fresh?: boolean) => Promise<T>;
  // the kept answer itself where it has arrived at `version`, for a screen's first render
  settled: <T>(key: string, version: number) => { data: T } | undefined;
  // the user whose answers these are: another one (or none) empties them
  keepFor: (userId: string | null) => void;
  clear: () => void;
}

const MOST_KEPT = 50; // a search per keystroke is a query of its own: the oldest answers go first

interface Kept {
  owner: string | null;
  version: number;
  promise: Promise<unknown>;
  arrived?: { data: unknown };
}

export function createKeptAnswers(): KeptAnswers {
  const kept = new Map<string, Kept>();
  let owner: string | null = null;
  const current = (key: string, version: number) => {
    const known = kept.get(key);
    return known?.owner === owner && known.version === version ? known : undefined;
  };
  return {
    answer<T>(key: string, version: number, load: () => Promise<T>, fresh = false): Promise<T> {
      const known = current(key, version);
      if (known && !fresh) return known.promise as Promise<T>;
      const entry: Kept = { owner, version, promise: load() };
      kept.delete(key); // set again last: the Map's order is the order of use
      kept.set(key, entry);
      if (kept.size > MOST_KEPT) kept.delete(kept.keys().next().value as string);
      entry.promise.then(
        (data) => void (entry.arrived = { data }),
        () => void (kept.get(key) === entry && kept.delete(key)), // the next screen asks again
      );
      return entry.promise as Promise<T>;
    },
    settled<T>(key: string, version: number) {
      return current(key, version)?.arrived as { data: T } | undefined;
    },
    keepFor(userId) {
      if (userId === owner) return;
      owner = userId;
      kept.clear();
    },
    clear: () => kept.clear(),
  };
}
