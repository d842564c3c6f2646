// The composition root builds the API from one module per capability: together they cover every method of
// LedgerService, and no method is given by two modules (a spread would silently keep the last one).
import { createCareConsent } from '../../workers/ledger/care-consent';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LedgerService } from '../../workers/api';
import type { createAnchors } from '../../workers/ledger/anchor';
import type { createBackupRestore } from '../../workers/ledger/backup-restore';
import type { createChainView } from '../../workers/ledger/chain-view';
import type { createChanges } from '../../workers/ledger/changes';
import type { createEmergency } from '../../workers/ledger/emergency';
import type { createPortability } from '../../workers/ledger/portability';
import type { createRecords } from '../../workers/ledger/records';
import type { createSandbox } from '../../workers/ledger/sandbox';
import type { createSession } from '../../workers/ledger/session';
import type { createSharing } from '../../workers/ledger/sharing';
import type { createTransferJobs } from '../../workers/ledger/transfer-jobs';
import type { createSync } from '../../workers/sync/sync-service';
import { createTestLedgerService } from '../support/test-ledger';

interface Modules {
  session: ReturnType<typeof createSession>['api'];
  chainView: ReturnType<typeof createChainView>;
  anchors: ReturnType<typeof createAnchors>;
  records: ReturnType<typeof createRecords>;
  emergency: ReturnType<typeof createEmergency>['api'];
  changes: ReturnType<typeof createChanges>['api'];
  sandbox: ReturnType<typeof createSandbox>['api'];
  sharing: ReturnType<typeof createSharing>['api'];
  portability: ReturnType<typeof createPortability>;
  backupRestore: ReturnType<typeof createBackupRestore>['api'];
  transfers: ReturnType<typeof createTransferJobs>['api'];
  sync: ReturnType<typeof createSync>['api'];
  careConsent: ReturnType<typeof createCareConsent>;
}
type MethodsOf<M extends keyof Modules> = keyof Modules[M];
type Covered = { [M in keyof Modules]: MethodsOf<M> }[keyof Modules];
type Overlap = {
  [M in keyof Modules]: MethodsOf<M> & { [N in Exclude<keyof Modules, M>]: MethodsOf<N> }[Exclude<keyof Modules, M>];
}[keyof Modules];

describe('the capability modules', () => {
  it('cover the LedgerService API exactly once', () => {
    expectTypeOf<Covered>().toEqualTypeOf<keyof LedgerService>();
    expectTypeOf<Overlap>().toEqualTypeOf<never>();
  });

  it('give the built service every method of the API, and nothing else', () => {
    const service = createTestLedgerService();
    const methods: Record<keyof LedgerService, true> = {
      signIn: true,
      resumeSession: true,
      signOut: true,
      chainStatus: true,
      blocksPage: true,
      block: true,
      patientOverview: true,
      listRecords: true,
      upload: true,
      readDocument: true,
      deleteDocument: true,
      clearRecordCount: true,
      sealClearRecords: true,
      accessHistory: true,
      acknowledgeEmergencyAccesses: true,
      doctorOverview: true,
      searchPatients: true,
      requestEmergencyAccess: true,
      endEmergencyAccess: true,
      endEmergencyAccessAsPatient: true,
      activeGrants: true,
      emergencyView: true,
      shareRecords: true,
      revokeShare: true,
      myShares: true,
      sharedWithMe: true,
      sharedView: true,
      resetDemoData: true,
      onChange: true,
      connectSync: true,
      disconnectSync: true,
      syncStatus: true,
      removeSyncDevice: true,
      careNetworkConsent: true,
      setCareNetworkConsent: true,
      saveAnchor: true,
      checkAnchor: true,
      sandboxReset: true,
      sandboxPage: true,
      sandboxBlock: true,
      sandboxEdit: true,
      sandboxRemine: true,
      sandboxRemineFrom: true,
      sandboxPeers: true,
      mineSandbox: true,
      cancelJob: true,
      exportFhir: true,
      importFhir: true,
      downloadBackup: true,
      prepareRestore: true,
      confirmRestore: true,
      cancelTransfer: true,
      resetAllowed: true,
    };
    expect(Object.keys(service).sort()).toEqual(Object.keys(methods).sort());
    for (const name of Object.keys(service)) expect(typeof service[name as keyof LedgerService]).toBe('function');
  });
});
