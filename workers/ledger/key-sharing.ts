// Document keys to and from this device's other readers (docs/decisions/document-keys-travel-wrapped.md): the sync
// module (workers/sync/) sends what wrapsToSend gives and hands what arrives to acceptWraps. Keys leave this module
// only wrapped; a key in clear never crosses the worker boundary.
import { accessScope, careConsentOf, isShareActive } from '../core/access';
import { decryptDocument } from '../core/documents';
import {
  CARE_NETWORK,
  isEncryptionPublicKey,
  isKeyWrap,
  summaryKeySubject,
  summaryWrapOf,
  unwrapKey,
  wrapKey,
  wrapSummaryKey,
  type KeyWrap,
  type Recipient,
} from '../core/key-wraps';
import type { LedgerState } from '../core/ledger-state';
import { openSummaryWrap, summaryRecipients } from '../core/summary-wraps';
import type { DocumentInfo, User } from '../core/types';
import type { LedgerDeps } from './deps';
import type { LedgerStore } from './store';

const MAX_WRAPS_PER_CALL = 10_000; // a peer's list is read no further

export interface KeySharingSession {
  actor: () => User | null;
  encryptionKey: (userId: string) => CryptoKey | undefined;
}

// Who may read `document` at `now` and has an enrolled key: its patient (their other devices), the doctor it names,
// and every doctor with an active full share of the patient.
function readersOf(state: LedgerState, document: DocumentInfo, now: number): Recipient[] {
  const keys = state.enrolment?.encryption ?? {};
  const ids = new Set([document.patientId]);
  if (document.doctorId) ids.add(document.doctorId);
  for (const shareId of state.patientShares.get(document.patientId) ?? []) {
    const share = state.shares.get(shareId)?.share;
    if (share && accessScope(share.accessLevel).documents && isShareActive(share, now)) ids.add(share.doctorId);
  }
  return [...ids].filter((id) => Object.hasOwn(keys, id)).map((id) => ({ id, publicKey: keys[id] }));
}

async function opens(bytes: ArrayBuffer, keyHex: string, cid: string): Promise<boolean> {
  try {
    await decryptDocument(bytes, keyHex, cid);
    return true;
  } catch {
    return false;
  }
}

export function createKeySharing(deps: LedgerDeps, store: LedgerStore, session: KeySharingSession) {
  let careNetworkKey: string | null = null;
  let made = new Map<string, KeyWrap>(); // `${documentId}|${to}|${recipient key}` -> its wrap: one per reader, not one per call

  // False on a ledger made before keys travelled (its genesis enrols no encryption keys): its files open only on the
  // device that stored them, and the Devices card should say so.
  async function keysTravel(): Promise<boolean> {
    await store.ready();
    return store.state().enrolment?.encryption !== undefined;
  }

  // The public key the sync server publishes for the care network; null while not connected.
  function setCareNetworkKey(publicKey: string | null): void {
    careNetworkKey = isEncryptionPublicKey(publicKey) ? publicKey : null;
  }

  // A wrap of every live document key this device holds, to each reader the ledger allows now (and to the care
  // network where the patient consents). An empty list on a ledger made before keys travelled.
  async function wrapsToSend(): Promise<KeyWrap[]> {
    await store.ready();
    const s = store.current();
    const state = s.verified.state;
    if (s.invalid || !state.enrolment?.encryption) return [];
    const now = deps.now();
    const from = session.actor()?.id ?? '';
    const next = new Map<string, KeyWrap>();
    for (const document of state.documents.values()) {
      const keyHex = s.keys.get(document.id);
      if (document.deletedAt || !keyHex) continue;
      const recipients = readersOf(state, document, now);
      if (careNetworkKey && careConsentOf(state, document.patientId))
        recipients.push({ id: CARE_NETWORK, publicKey: careNetworkKey });
      for (const recipient of recipients) {
        const id = `${document.id}|${recipient.id}|${recipient.publicKey}`;
        const wrap = made.get(id) ?? (await wrapKey(document.id, document.ipfsHash, keyHex, recipient, from));
        next.set(id, wrap);
      }
    }
    // each summary key this device holds, to the readers of its patient's summary now (docs/decisions/nothing-medical-in-clear.md)
    for (const summary of s.summaryKeys.values()) {
      for (const recipient of summaryRecipients(state, summary.patientId, now, careNetworkKey)) {
        const id = `${summaryKeySubject(summary.patientId, summary.epochId)}|${recipient.id}|${recipient.publicKey}`;
        const wrap = made.get(id) ?? (await wrapSummaryKey(summary.patientId, summary.epochId, summary.key, recipient, from));
        next.set(id, wrap);
      }
    }
    made = next; // wraps to readers who lost access are not sent again
    return [...next.values()];
  }

  // The documents and summary epochs whose wraps this device may take back: those whose key it holds (it decides who
  // reads them now) and deleted documents. A wrap it listed but can no longer vouch for (a reset emptied its keys)
  // stays on the server: it may be the only one a reader has.
  async function vouchedSubjects(): Promise<Set<string>> {
    await store.ready();
    const s = store.current();
    const subjects = new Set<string>(s.keys.keys());
    for (const document of s.verified.state.documents.values()) if (document.deletedAt) subjects.add(document.id);
    for (const summary of s.summaryKeys.values()) subjects.add(summaryKeySubject(summary.patientId, summary.epochId));
    return subjects;
  }

  // Stores the key of each wrap addressed to the signed-in user that opens with their encryption key and opens
  // the file's bytes, or is the summary key of an epoch its patient announced; how many were stored. A wrap whose file's bytes have not arrived yet is left: offer it
  // again after store.addRemoteContent.
  async function acceptWraps(wraps: unknown[]): Promise<number> {
    const user = session.actor();
    const privateKey = user ? session.encryptionKey(user.id) : undefined;
    if (!user || !privateKey || !Array.isArray(wraps)) return 0;
    await store.ready();
    let accepted = 0;
    for (const wrap of wraps.slice(0, MAX_WRAPS_PER_CALL)) {
      if (!isKeyWrap(wrap) || wrap.to !== user.id) continue;
      const s = store.current();
      const summary = summaryWrapOf(wrap);
      if (summary) {
        if (s.summaryKeys.has(summary.epochId)) continue;
        // anyone can wrap to this user's public key: a key is kept only when it hashes to the epoch it names
        const opened = await openSummaryWrap(wrap, privateKey);
        if (opened && (await store.addSummaryKey(opened))) accepted++;
        continue;
      }
      const document = s.verified.state.documents.get(wrap.documentId);
      if (!document || document.deletedAt || s.keys.has(document.id)) continue;
      const bytes = await deps.storage.readContent(document.id);
      if (!bytes) continue;
      const keyHex = await unwrapKey(wrap, privateKey, document.ipfsHash);
      // a wrap anyone could make to this user's public key: only a key that opens the file is kept
      if (!keyHex || !(await opens(bytes, keyHex, document.ipfsHash))) continue;
      if (await store.addRemoteKey(document.id, keyHex)) accepted++;
    }
    return accepted;
  }

  return { wrapsToSend, vouchedSubjects, acceptWraps, keysTravel, setCareNetworkKey };
}

export type KeySharing = ReturnType<typeof createKeySharing>;
