// The composition root: builds the one LedgerService of workers/api.ts from one module per capability.
// Modules never import each other; what one needs of another is handed over here.
import type { ChangeKind, LedgerService } from './api';
import type { User } from './core/types';
import { dueExpiryRecords } from './core/ledger-records';
import type { createAnchors } from './ledger/anchor';
import { createArrivals } from './ledger/arrivals';
import { createChainView } from './ledger/chain-view';
import { createChanges } from './ledger/changes';
import type { LedgerDeps } from './ledger/deps';
import { createEmergency } from './ledger/emergency';
import { createExpiry } from './ledger/expiry';
import { createFirstScreen } from './ledger/first-screen';
import { createCareConsent } from './ledger/care-consent';
import { createKeySharing, type KeySharing } from './ledger/key-sharing';
import { createRecords } from './ledger/records';
import type { createSandbox } from './ledger/sandbox';
import { createSealing, type Sealing } from './ledger/sealing';
import { createSession } from './ledger/session';
import { signProof } from './core/sync-proof';
import { createSharing } from './ledger/sharing';
import { createLedgerStore, type LedgerStore } from './ledger/store';
import { guarded } from './ledger/policy';
import type { createPortability } from './ledger/portability';
import type { createBackupRestore } from './ledger/backup-restore';
import { createTransferJobs } from './ledger/transfer-jobs';
import { createSync } from './sync/sync-service';
import { inArrivalOrder, onFirstUse, type FirstUse } from './ledger/on-first-use';

// Capabilities no first screen calls (the explorer's sandbox and anchor, the mining lab, FHIR, backups) are built on
// the first call of one of them: their code stays out of the worker's start, which a returning user's dashboard
// waits for.
// Each one's methods are listed in a Record typed by its api, so the compiler catches a missing one.
interface LaterCapabilities {
  sandbox: ReturnType<typeof createSandbox>;
  anchors: ReturnType<typeof createAnchors>;
  portability: ReturnType<typeof createPortability>;
  backupRestore: ReturnType<typeof createBackupRestore>;
}
const SANDBOX_CALLS: Record<keyof LaterCapabilities['sandbox']['api'], true> = {
  sandboxReset: true,
  sandboxPage: true,
  sandboxBlock: true,
  sandboxEdit: true,
  sandboxRemine: true,
  sandboxRemineFrom: true,
  sandboxPeers: true,
  mineSandbox: true,
  cancelJob: true,
};
const ANCHOR_CALLS: Record<keyof LaterCapabilities['anchors'], true> = { saveAnchor: true, checkAnchor: true };
const PORTABILITY_CALLS: Record<keyof LaterCapabilities['portability'], true> = { exportFhir: true, importFhir: true };
const BACKUP_RESTORE_CALLS: Record<keyof LaterCapabilities['backupRestore']['api'], true> = {
  downloadBackup: true,
  prepareRestore: true,
  confirmRestore: true,
};

// The methods `calls` names, each one the built capability's own.
function callsOn<A extends object>(
  calls: Record<keyof A, true>,
  later: FirstUse<LaterCapabilities>,
  pick: (capabilities: LaterCapabilities) => A,
): A {
  const call =
    (name: keyof A) =>
    (...args: unknown[]) => {
      const run = (capabilities: LaterCapabilities) => (pick(capabilities)[name] as (...args: unknown[]) => unknown)(...args);
      const built = later.built();
      return built ? run(built) : later.get().then(run);
    };
  return Object.fromEntries(Object.keys(calls).map((name) => [name, call(name as keyof A)])) as A;
}

export function createLedgerService(deps: LedgerDeps): LedgerService {
  return createLedgerBackend(deps).service;
}

// The service and the store under it: the sync module (workers/sync/) merges other devices' blocks into the store
// and exchanges wrapped document keys through keySharing.
export function createLedgerBackend(deps: LedgerDeps): {
  service: LedgerService;
  store: LedgerStore;
  actor: () => User | null;
  keySharing: KeySharing;
  sealing: Sealing; // what the screens read opened (tests look at its caches)
} {
  const changes = createChanges(deps);
  const expiry = createExpiry(deps, () => store);
  const firstScreen = createFirstScreen(deps, () => store);
  const store = createLedgerStore(deps, {
    beforeLoad: () => session.prepareEarlyResume(),
    dueRecords: (state, at) => dueExpiryRecords(state, at, deps.randomId),
    committed: (change) => {
      changes.announce(change);
      sync.localChanged(); // what this device wrote or took leaves at once
    },
    stateChanged: expiry.reschedule,
    signingKey: (author) => session.signingKey(author),
    keyRefused: () => void session.api.signOut().catch(() => undefined), // a stale key signs nothing more
    checked: changes.notifyLocal,
  });
  changes.followOthers(async () => {
    const reloaded = await store.refresh();
    if (reloaded) sync.localChanged(); // another tab wrote: its blocks leave through this tab's link too
    return reloaded;
  });
  const session = createSession(
    deps,
    store,
    expiry.recordDue,
    () => {
      later.built()?.sandbox.stopAll(); // not built yet: nothing of it runs
      transfers.cancelAll();
      later.built()?.backupRestore.actorChanged();
      sealing.forget(); // nothing opened for one user is held for the next
      sync.localChanged(); // wraps to the user who signed in are taken, theirs to send are made
    },
    firstScreen.early,
  );
  const keySharing = createKeySharing(deps, store, session);
  const sealing = createSealing(store, session);
  // progress of files on their way from other devices: the screens reread records a few times a second at most
  const arrivals = createArrivals(
    () => (store.loaded() ? store.current().awaiting : new Set()),
    () => changes.notifyLocal({ revision: store.loaded() ? store.current().revision : 0, kinds: ['records'] }),
    deps.now,
  );
  const emergency = createEmergency(deps, store, session.enter, sealing, arrivals.of, async (grantId, epochIds, readBlock) => {
    // the summary keys of what a read under a grant sent, from the care network while the patient's devices are away
    for (const epochId of epochIds) await sync.releaseSummary(grantId, epochId, async () => readBlock);
  });
  const sharing = createSharing(deps, store, session.enter, sealing, arrivals.of);
  const transfers = createTransferJobs(deps, session.enter);
  const later = onFirstUse(async (): Promise<LaterCapabilities> => {
    const [{ createSandbox }, { createAnchors }, { createPortability }, { createBackupRestore }] = await Promise.all([
      import('./ledger/sandbox'),
      import('./ledger/anchor'),
      import('./ledger/portability'),
      import('./ledger/backup-restore'),
    ]);
    return {
      sandbox: createSandbox(deps, store, session.enter, sealing),
      anchors: createAnchors(deps, store, session.enter),
      portability: createPortability(deps, store, session.enter, transfers, sealing),
      backupRestore: createBackupRestore(deps, store, session.enter, session.api.signOut, transfers),
    };
  });
  const sync = createSync(
    deps,
    store,
    session.enter,
    async (challenge, genesis, deviceId) => {
      const user = session.actor();
      const key = user ? session.signingKey(user.id) : undefined;
      return user && key ? signProof(challenge, genesis, deviceId, user.id, key) : null;
    },
    async (user, password) => {
      try {
        await session.api.signIn(user.email, password, user.role);
        return true;
      } catch {
        return false;
      }
    },
    async () => {
      await session.api.signOut();
      // the screens follow: the device took the server's ledger, whose keys the user must sign in with
      changes.notifyLocal({ revision: store.loaded() ? store.current().revision : 0, kinds: ['signed-out'] });
    },
    () => changes.notifyLocal({ revision: store.loaded() ? store.current().revision : 0, kinds: ['sync'] }),
    keySharing,
    arrivals.progress,
  );

  const chainView = createChainView(store, session.enter, session.actor, sealing);
  const records = createRecords(
    deps,
    store,
    session.enter,
    { emergency: emergency.logRead, share: sharing.logShareRead },
    sealing,
    sync.release,
    arrivals.of,
  );
  const service: LedgerService = {
    ...session.api,
    ...chainView,
    ...records,
    // a long ledger's returning patient: their dashboard as last answered here, while the load runs
    chainStatus: () => firstScreen.chainStatus(session.actor(), chainView.chainStatus),
    patientOverview: () => firstScreen.patientOverview(session.actor(), records.patientOverview),
    ...emergency.api,
    ...sharing.api,
    ...changes.api,
    ...callsOn<LaterCapabilities['sandbox']['api']>(SANDBOX_CALLS, later, (capabilities) => capabilities.sandbox.api),
    ...callsOn<LaterCapabilities['anchors']>(ANCHOR_CALLS, later, (capabilities) => capabilities.anchors),
    ...callsOn<LaterCapabilities['portability']>(PORTABILITY_CALLS, later, (capabilities) => capabilities.portability),
    ...callsOn<LaterCapabilities['backupRestore']['api']>(
      BACKUP_RESTORE_CALLS,
      later,
      (capabilities) => capabilities.backupRestore.api,
    ),
    ...transfers.api,
    ...sync.api,
    ...createCareConsent(deps, store, session.enter, () => sync.localChanged()),
  };
  // start loading now (a failure is reported by the first call); once shown, screens shown a kept answer ask again
  void store.ready().then(
    () => {
      const held = session.confirmEarlyResume();
      const kinds: ChangeKind[] = held ? ['chain', 'records', 'grants', 'access'] : ['signed-out'];
      if (!held || firstScreen.served()) changes.notifyLocal({ revision: store.current().revision, kinds });
    },
    () => undefined,
  );
  void sync.resume().catch(() => undefined); // a device that was connected before the reload connects again
  // the table of who may call what is consulted when a call runs, after any wait for the later capabilities
  return {
    service: inArrivalOrder(guarded(service, session.actor), later.loading),
    store,
    actor: session.actor,
    keySharing,
    sealing,
  };
}
