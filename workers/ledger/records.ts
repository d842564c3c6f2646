// A patient's records and documents: overview, lists, upload, read and delete.
import { transfer } from 'comlink';
import type { DocumentContent, LedgerService, RecordQuery } from '../api';
import { assertCanDelete, assertCanReadPatient, documentAccess, requireRole } from '../core/access';
import { PATIENT_RECENT_RECORDS, RECORDS_PAGE_SIZE } from '../core/constants';
import { findUser } from '../core/directory';
import { decryptDocument, encryptDocument } from '../core/documents';
import { deletionRecord, iso, type AccessRead } from '../core/ledger-records';
import type { LedgerState, RecordEntry } from '../core/projection';
import { checkText, foldForSearch } from '../core/text-input';
import type { ClinicalRecord, DocumentInfo, User } from '../core/types';
import { validateUpload } from '../core/upload-request';
import { fail, sleep, type LedgerDeps } from './deps';
import type { Sealing } from './sealing';
import type { LedgerStore } from './store';
import {
  type ArrivalOf,
  accessHistoryOf,
  documentView,
  fileLabel,
  grantsOf,
  isClinical,
  newestRecords,
  openedEntries,
  pageAsked,
  SEALED_DOCUMENT_READ,
  readableSummary,
  recordsPageOf,
  recordView,
  sharesOf,
} from './views';

// Logs a read under a grant or a share on the chain (the emergency and sharing modules, through the root).
export type LogRead = (signedIn: User, accessId: string, read: AccessRead) => Promise<void>;
// Fetches and stores a document's key under an emergency grant (the sync module) against the read block that
// `recordRead` writes once the server can be asked: null when stored, else why not.
export type ReleaseKey = (
  grantId: string,
  documentId: string,
  recordRead: () => Promise<string | undefined>,
) => Promise<string | null>;

function storedDocument(state: LedgerState, documentId: unknown): DocumentInfo {
  const document = typeof documentId === 'string' ? state.documents.get(documentId) : undefined;
  return document ?? fail('NotFoundError', 'This document does not exist.');
}

export function createRecords(
  deps: LedgerDeps,
  store: LedgerStore,
  enter: () => Promise<User>,
  logRead: { emergency: LogRead; share: LogRead },
  sealing: Sealing,
  releaseKey?: ReleaseKey,
  arrivalOf?: ArrivalOf, // files still on their way from another device (workers/ledger/arrivals.ts)
) {
  const api: Pick<
    LedgerService,
    'patientOverview' | 'listRecords' | 'upload' | 'readDocument' | 'deleteDocument' | 'clearRecordCount' | 'sealClearRecords'
  > = {
    async patientOverview() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      // the dashboard shows the newest few: only they are opened before it answers (the rest follow, for Medical Records)
      const newest = (state: LedgerState) =>
        newestRecords(state, signedIn.id)
          .filter(isClinical)
          .slice(0, PATIENT_RECENT_RECORDS)
          .map((entry) => entry.record);
      const state = await sealing.readableShowing(signedIn, newest);
      // medical records only: a grant is an access event, shown in the access history and the alert
      const records = newestRecords(state, signedIn.id).filter(isClinical);
      const lastUpload = records.find(({ record }) => record.type === 'prescription' || record.type === 'test_report');
      return {
        patient: structuredClone(signedIn),
        totalRecords: records.length,
        lastUpload: lastUpload ? lastUpload.record.timestamp : null,
        recent: records.slice(0, PATIENT_RECENT_RECORDS).map((entry) => recordView(state, entry, true, arrivalOf)),
        newEmergencyAccesses: accessHistoryOf(state, signedIn.id, store.clock(), (known) => !known.acknowledged),
      };
    },

    async listRecords(patientId, query: RecordQuery = {}) {
      const signedIn = await enter();
      assertCanReadPatient(signedIn, patientId);
      const asked = query ?? {};
      const checked = checkText('search', typeof asked.search === 'string' ? asked.search : '');
      if (checked.problem) fail('ValidationError', checked.problem);
      const search = foldForSearch(checked.text);
      const wanted = pageAsked(asked);
      const listed = (state: LedgerState) =>
        newestRecords(state, patientId)
          .filter(isClinical) // access events live in the access history, never among medical records
          .filter(({ record }) => !asked.type || record.type === asked.type);
      const answer = (state: LedgerState, entries: (RecordEntry & { record: ClinicalRecord })[]) => {
        const { entries: shown, total, page } = recordsPageOf(entries, wanted);
        const records = shown.map((entry) => recordView(state, entry, true, arrivalOf));
        return { records, total, page, pageSize: RECORDS_PAGE_SIZE };
      };
      if (search === '') {
        // the kind and type are clear fields: the page is chosen on the chain's projection and only its uploads opened
        const shown = (state: LedgerState) => recordsPageOf(listed(state), wanted).entries.map((entry) => entry.record);
        const state = await sealing.readableShowing(signedIn, shown);
        return answer(state, listed(state));
      }
      // the searched text is sealed: every upload is opened to search it
      const state = await sealing.readable(signedIn);
      const matching = listed(state).filter(({ record }) =>
        // the care team's name too: every record's card shows it (src/components/record-author.ts)
        [record.title, record.description, findUser(record.doctorId)?.name ?? '', ...record.files.map((file) => file.name)].some(
          (text) => foldForSearch(text).includes(search),
        ),
      );
      return answer(state, matching);
    },

    async upload(request) {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      store.assertWritable();
      const { title, description, files } = validateUpload(request);
      await sleep(deps.uploadDelayMs);
      const encrypted = await Promise.all(files.map((file) => encryptDocument(file.bytes)));
      const ids = files.map(() => deps.randomId());
      const keys = new Map(ids.map((id, i) => [id, encrypted[i].encryptionKey]));
      const { block, index } = await store.write('The upload was not saved', async (snapshot, at) => {
        const record: ClinicalRecord = {
          id: deps.randomId(),
          patientId: signedIn.id,
          doctorId: signedIn.doctorId ?? '',
          type: request.type,
          title,
          description,
          files: files.map((file, i) => ({
            documentId: ids[i],
            name: file.name,
            type: file.type, // its lower-case essence (validateUpload)
            size: file.bytes.byteLength,
            cid: encrypted[i].ipfsHash,
          })),
          timestamp: iso(at),
        };
        const sealed = await sealing.sealUploads(snapshot, signedIn.id, [record], keys, at);
        return {
          records: sealed.records,
          summaryKeys: sealed.summaryKeys,
          documents: ids.map((id, i) => ({ id, encryptionKey: encrypted[i].encryptionKey })),
          contents: ids.map((id, i) => ({ id, bytes: encrypted[i].stored })),
          result: ([block]) => ({ block, index: Number(block.id) }),
        };
      });
      const readable = await sealing.readable(signedIn);
      const [entry] = openedEntries(readable, [{ index, hash: block.hash, record: block.data }]); // as the patient wrote it
      const summary = { ...readableSummary(block, index, 'holds'), title: entry.record.title }; // signed just now
      return { record: recordView(readable, entry, true, arrivalOf), block: summary };
    },

    async readDocument(documentId) {
      const signedIn = await enter();
      const state = await sealing.readable(signedIn);
      const document = storedDocument(state, documentId);
      const access = documentAccess(signedIn, document, grantsOf(state), store.clock(), sharesOf(state));
      const deleted = (): never => fail('NotFoundError', `${fileLabel(document, 'This file')} was deleted.`);
      if (document.deletedAt) deleted();
      let key = store.current().keys.get(document.id);
      const stored = await deps.storage.readContent(document.id);
      const inClear = store.state().documents.get(document.id)?.fileName; // a sealed name never goes on the chain
      const read = { what: inClear ? `document "${inClear}"` : SEALED_DOCUMENT_READ, documentId: document.id };
      let released: string | null = null;
      let keyReleased = false;
      if (stored && !key && access.via === 'emergency' && releaseKey) {
        // the patient's devices may all be offline: the sync server's care network releases the key against the
        // doctor's read block, so the read is on the chain (for the patient to see) before the key is handed out
        const grantId = access.grant.id;
        released = await releaseKey(grantId, document.id, async () => {
          await logRead.emergency(signedIn, grantId, read);
          return store
            .state()
            .grants.get(grantId)
            ?.reads.findLast((r) => r.documentId === document.id)?.block;
        });
        key = store.current().keys.get(document.id);
        keyReleased = key !== undefined;
      }
      if (!stored || !key) {
        await store.refresh(); // another tab may have deleted it since this one last read
        if (store.state().documents.get(document.id)?.deletedAt !== undefined) deleted();
        if (store.current().awaiting.has(document.id))
          fail('NotFoundError', `This file has not reached this device yet.${released ? ` ${released}` : ''}`);
        fail('IntegrityError', `The stored bytes of ${fileLabel(document)} are missing.`);
      }
      const bytes = await decryptDocument(stored, key, document.ipfsHash);
      if (access.via === 'emergency') await logRead.emergency(signedIn, access.grant.id, read);
      if (access.via === 'share') await logRead.share(signedIn, access.share.id, read);
      // a key released by this read opens the file's name too: the view is taken again with it
      const opened = keyReleased ? await sealing.readable(signedIn) : state;
      const content: DocumentContent = { document: documentView(opened, document.id, arrivalOf) ?? document, bytes };
      return transfer(content, [bytes]); // over comlink the decrypted bytes move, they are not copied
    },

    async clearRecordCount() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      return sealing.clearUploads(store.current(), signedIn.id).length;
    },

    // On the patient's consent: each upload of theirs written in clear is sealed in a block that names it.
    async sealClearRecords() {
      const signedIn = await enter();
      requireRole(signedIn, 'patient');
      store.assertWritable();
      return store.write('The sealed records were not saved', async (snapshot, at) => {
        const { records, summaryKeys } = await sealing.resealings(snapshot, signedIn.id, at, deps.randomId);
        return { records, summaryKeys, result: () => records.length };
      });
    },

    async deleteDocument(documentId) {
      const signedIn = await enter();
      assertCanDelete(signedIn, storedDocument(store.state(), documentId));
      const named = storedDocument(await sealing.readable(signedIn), documentId); // its name as the patient reads it
      const deleted = await store.write('The deletion was not saved', ({ verified: { state } }, at) => {
        const document = storedDocument(state, documentId); // decided again on the fresh state
        assertCanDelete(signedIn, document);
        if (document.deletedAt) fail('NotFoundError', `${fileLabel(named, 'This file')} was deleted.`);
        return {
          records: [deletionRecord(deps.randomId(), document, iso(at))],
          deleteDocuments: [document.id],
          result: () => documentView(store.state(), document.id) ?? document,
        };
      });
      return { ...deleted, fileName: named.fileName, fileType: named.fileType };
    },
  };
  return api;
}
