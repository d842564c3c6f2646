import { resumeEarly } from '../auth/early-resume';
import type { LedgerConnection } from '../ledger/ledger-worker';
import { versionOf } from '../ledger/ledger-versions';
import type { NamedQuery } from '../ledger/use-ledger-query';

// A returning user's session and their first screen's data, asked of the worker as soon as it starts, while React's
// code and the screen's are still on their way: the first render then shows the screen with its data. The answers
// are kept by version (src/ledger/kept-answers.ts), so a change before the screen renders makes it ask again.
export function askFirstData(connection: LedgerConnection, userId: string, queries: readonly NamedQuery<unknown>[]): void {
  const { service, changes } = connection;
  if (!changes) return;
  resumeEarly(service, userId).then(
    (user) => {
      if (!user) return;
      changes.answers.keepFor(user.id);
      changes.chainStatus.prefetch(); // every dashboard shows the chain's height
      for (const { key, kinds, load } of queries) {
        const version = versionOf(changes.versions.versions(), kinds);
        changes.answers.answer(key, version, () => load(service)).catch(() => undefined); // the screen shows a failure
      }
    },
    () => undefined, // the session provider reports it
  );
}
