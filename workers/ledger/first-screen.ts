// A returning patient's dashboard on a long ledger, as this device last answered it: reading and checking every
// stored block takes seconds at 100,000 blocks, so the last answer is kept (per user, bound to the stored revision)
// and shown again while the load runs, with the chain's status "Checking". It is never trusted: every other call,
// and every write, waits for the load; once the load is shown the screens are told to ask again, and the answers
// come from the verified blocks (docs/security.md; figures in docs/performance.md).
import type { ChainStatus, PatientOverview } from '../api';
import { isOtherThanDemo } from '../core/demo-ledger';
import type { KeyEnrolment, User } from '../core/types';
import { FIRST_SCREEN_KEY, REVISION_KEY, SESSION_KEY, storedRevision } from '../storage/ledger-storage';
import type { LedgerDeps } from './deps';
import { genesisEnrolment, longLedger } from './snapshot';
import type { LedgerStore } from './store';

interface KeptScreen {
  userId: string;
  revision: number; // the stored revision it was answered at: any write since makes it old
  height: number;
  lastBlockTime: string;
  ownLedger: boolean;
  overview: PatientOverview;
}

// The kept screen of the stored session's user, with the keys its genesis enrols (the session resumes against them).
interface EarlyScreen {
  kept: KeptScreen;
  enrolment: KeyEnrolment;
}

function isKept(value: unknown): value is KeptScreen {
  const kept = value as Partial<KeptScreen> | null | undefined;
  return (
    typeof kept?.userId === 'string' &&
    typeof kept.revision === 'number' &&
    typeof kept.height === 'number' &&
    typeof kept.lastBlockTime === 'string' &&
    kept.overview?.patient?.id === kept.userId &&
    typeof kept.overview.totalRecords === 'number' && // an entry edited at rest must not break the screen it is shown on
    Array.isArray(kept.overview.recent) &&
    Array.isArray(kept.overview.newEmergencyAccesses)
  );
}

export function createFirstScreen(deps: LedgerDeps, store: () => LedgerStore) {
  const { storage } = deps;
  let early: Promise<EarlyScreen | null> | null = null;
  let served = false;
  let keptRevision: number | null = null;

  // Reads only the meta entries and the genesis: the long read of every block starts after it (store.ts beforeLoad).
  async function prepare(): Promise<EarlyScreen | null> {
    if (!storage.readFirstBlock) return null;
    const [session, kept, revision] = await Promise.all(
      [SESSION_KEY, FIRST_SCREEN_KEY, REVISION_KEY].map((key) => storage.readMeta(key)),
    );
    if (!isKept(kept) || (session as { userId?: unknown } | undefined)?.userId !== kept.userId) return null;
    if (kept.revision !== storedRevision(revision) || !longLedger(kept.height)) return null;
    const genesis = await storage.readFirstBlock();
    if (!genesis || isOtherThanDemo(genesis, deps.demoLedger) !== kept.ownLedger) return null;
    const enrolment = genesisEnrolment([genesis], deps.difficulty);
    return enrolment ? { kept, enrolment } : null;
  }

  const earlyScreen = () => (early ??= prepare().catch(() => null));

  // The kept screen while the load runs, for `user` only.
  async function keptFor(user: User | null): Promise<KeptScreen | null> {
    if (!user || store().loaded()) return null;
    const screen = await earlyScreen();
    if (screen?.kept.userId !== user.id || store().loaded()) return null;
    served = true;
    return screen.kept;
  }

  // After an answer from the loaded ledger: kept for the next load when the ledger is long and verifies so far.
  function keep(userId: string, overview: PatientOverview): void {
    const { revision, invalid } = store().current();
    const { height, lastBlockTime, ownLedger = false } = store().status(); // as the chain status says them
    if (invalid || !longLedger(height) || keptRevision === revision) return;
    keptRevision = revision;
    const kept: KeptScreen = { userId, revision, height, lastBlockTime, ownLedger, overview };
    storage.commit({ meta: { [FIRST_SCREEN_KEY]: kept } }).catch(() => (keptRevision = null)); // kept or not, the answer stands
  }

  return {
    // before the first load reads the blocks (session.ts): the stored session's user if they have a kept screen,
    // with the keys the genesis enrols, which their session is checked against
    early: async () => {
      const screen = await earlyScreen();
      return screen && { userId: screen.kept.userId, enrolment: screen.enrolment };
    },
    // whether a kept answer was shown: the screens must then ask again once the load is shown
    served: () => served,
    async patientOverview(user: User | null, answer: () => Promise<PatientOverview>): Promise<PatientOverview> {
      const kept = await keptFor(user);
      if (kept) return structuredClone(kept.overview);
      const overview = await answer();
      if (store().loaded()) keep(overview.patient.id, overview);
      return overview;
    },
    async chainStatus(user: User | null, answer: () => Promise<ChainStatus>): Promise<ChainStatus> {
      const kept = await keptFor(user);
      if (!kept) return answer();
      return {
        height: kept.height,
        valid: true, // not yet known: nothing is checked, which the screens show as "Checking"
        difficulty: deps.difficulty,
        lastBlockTime: kept.lastBlockTime,
        readOnly: false,
        signaturesChecked: 0,
        signaturesToCheck: kept.height,
        hashesChecked: 0,
        lastCheck: true,
        ...(kept.ownLedger ? { ownLedger: true as const } : {}),
      };
    },
  };
}
