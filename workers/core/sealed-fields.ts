// A record's medical text sealed off the chain's clear fields (docs/decisions/nothing-medical-in-clear.md): AES-256-GCM
// under a key derived from the patient's summary key (titles, descriptions), a file's document key (its name and type)
// or a record's own key (a grant's reason), with the record's clear fields as additional data. Pure: no storage,
// randomness from WebCrypto.
import { isGrantActive, isShareActive } from './access';
import { base64ToBytes, bytesToBase64 } from './base64';
import { hkdfSha256 } from './hkdf';
import { bytesToHex, hexToBytes } from './ids';
import { summaryEpochId, unwrapKey, wrapKey, type Recipient } from './key-wraps';
import type { LedgerState } from './ledger-state';
import type { ChainFile, ClinicalRecord, ReaderSealed, SealedClinicalRecord, SealedPart } from './types';

import { joinOpened, splitSealed } from './records/shape';
import { UPLOAD, type UploadKind } from './records/upload';
import { DOCUMENT_KEY, RECORD_KEY, isReaderSealed, isSealedPart } from './sealed-parts';

export type { ReaderSealed, SealedChainFile, SealedClinicalRecord, SealedPart } from './types'; // defined with the records that carry them, which import nothing
export { DOCUMENT_KEY, MAX_SEALED_DATA, RECORD_KEY, isReaderSealed, isSealedPart } from './sealed-parts';
export { sealedUploadProblem } from './records/upload'; // the rule on a sealed upload, where its kind is

const IV_BYTES = 12;
const PAD_BYTES = 64; // sealed text is padded to a multiple of this: the ciphertext's length tells only a rough size
const KEY_HEX = /^[0-9a-f]{64}$/;

// One epoch of a patient's summary key: what is written after a revoke or an expiry is sealed under a new one.
export interface SummaryKey {
  patientId: string;
  epochId: string; // 32 hex, derived from the key (summaryEpochId)
  key: string; // 64 hex
}

// The clear fields a sealed part is bound to: moved to another record, file, patient or kind, it does not open.
export interface SealBinding {
  recordId: string;
  patientId: string;
  type: string;
  documentId?: string; // for a file's part
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function createSummaryKey(patientId: string): Promise<SummaryKey> {
  const key = bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
  return { patientId, epochId: await summaryEpochId(patientId, key), key };
}

const EPOCH_ID = /^[0-9a-f]{32}$/;

// Summary keys as stored or carried by a backup, well-formed ones only (see summaryKeysOfEpochs for the epoch check).
export function summaryKeysOf(value: unknown): Map<string, SummaryKey> {
  const keys = new Map<string, SummaryKey>();
  for (const item of Array.isArray(value) ? value : []) {
    const { patientId, epochId, key } = (item ?? {}) as Partial<Record<keyof SummaryKey, unknown>>;
    if (
      typeof patientId === 'string' &&
      typeof epochId === 'string' &&
      EPOCH_ID.test(epochId) &&
      typeof key === 'string' &&
      KEY_HEX.test(key)
    )
      keys.set(epochId, { patientId, epochId, key });
  }
  return keys;
}

// Those of `keys` that hash to the epoch they name: a key restored from a file is checked as a wrapped one is.
export async function summaryKeysOfEpochs(keys: Iterable<SummaryKey>): Promise<SummaryKey[]> {
  const checked = await Promise.all(
    [...keys].map(async (key) => ((await summaryEpochId(key.patientId, key.key)) === key.epochId ? [key] : [])),
  );
  return checked.flat();
}

// Derived keys of summary keys, which seal every upload of an epoch: derived once, not once per record opened.
const summaryPartKeys = new Map<string, Promise<CryptoKey>>();

// The AES key of a part: derived (HKDF) so the summary key and a document key never encrypt sealed text directly.
function partKey(keyHex: string, keyName: string, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  if (!KEY_HEX.test(keyHex)) throw new Error('A sealing key is 64 hex digits.');
  const purpose = keyName === DOCUMENT_KEY ? 'file-fields' : keyName === RECORD_KEY ? 'record-fields' : 'summary-fields';
  if (purpose !== 'summary-fields') return derivePartKey(keyHex, purpose, usage);
  const id = `${keyHex}|${usage}`;
  let key = summaryPartKeys.get(id);
  if (!key) {
    key = derivePartKey(keyHex, purpose, usage);
    summaryPartKeys.set(id, key);
    key.catch(() => summaryPartKeys.delete(id));
  }
  return key;
}

// HKDF-SHA256 with an empty salt, as WebCrypto's deriveKey would, computed here (hkdf.ts): a first read derives a key
// for every file it opens, and WebCrypto's import and derivation cost two asynchronous jobs each.
async function derivePartKey(keyHex: string, purpose: string, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  const derived = hkdfSha256(hexToBytes(keyHex), encoder.encode(`medledger-sealed|${purpose}`));
  try {
    return await crypto.subtle.importKey('raw', derived, { name: 'AES-GCM' }, false, [usage]);
  } finally {
    derived.fill(0);
  }
}

// JSON of a list, so no field's text can pass for a separator between two others.
function additionalData(binding: SealBinding, keyName: string): Uint8Array<ArrayBuffer> {
  const { recordId, patientId, type, documentId } = binding;
  return encoder.encode(JSON.stringify(['medledger-sealed', recordId, patientId, type, documentId ?? '', keyName]));
}

function padded(text: string): Uint8Array<ArrayBuffer> {
  const bytes = encoder.encode(text);
  const out = new Uint8Array(Math.ceil((bytes.length + 1) / PAD_BYTES) * PAD_BYTES).fill(0x20); // JSON ignores spaces
  out.set(bytes);
  return out;
}

// `fields` sealed under `keyHex` (named `keyName` in the part: a summary epoch id or DOCUMENT_KEY), bound to `binding`.
export async function sealPart(keyHex: string, keyName: string, binding: SealBinding, fields: object): Promise<SealedPart> {
  const aes = await partKey(keyHex, keyName, 'encrypt');
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const plain = padded(JSON.stringify(fields));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(binding, keyName) }, aes, plain);
  return { key: keyName, iv: bytesToBase64(iv), data: bytesToBase64(new Uint8Array(data)) };
}

// The fields of a part, or null: another key, another record's part, or a changed byte.
export async function openPart(part: unknown, keyHex: string, binding: SealBinding): Promise<Record<string, unknown> | null> {
  if (!isSealedPart(part) || !KEY_HEX.test(keyHex)) return null;
  const iv = base64ToBytes(part.iv);
  const data = base64ToBytes(part.data);
  if (!iv || iv.length !== IV_BYTES || !data) return null;
  try {
    const aes = await partKey(keyHex, part.key, 'decrypt');
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv, additionalData: additionalData(binding, part.key) },
      aes,
      data,
    );
    const fields: unknown = JSON.parse(decoder.decode(plain));
    return fields !== null && typeof fields === 'object' && !Array.isArray(fields) ? (fields as Record<string, unknown>) : null;
  } catch {
    return null; // the tag does not hold: not this key, or not this record's part
  }
}

// What a reader opened of a sealed upload: its text always, each file's name and type only with that file's key.
export interface OpenedClinicalRecord {
  record: ClinicalRecord; // a file whose key the reader lacks keeps name and type ''
  filesOpened: boolean[];
}

const fileBinding = (record: { id: string; patientId: string; type: string }, documentId: string): SealBinding => ({
  recordId: record.id,
  patientId: record.patientId,
  type: record.type,
  documentId,
});

// The upload `record` with every field its kind (records/upload.ts) does not list as clear sealed, under the summary key
// and, for its files' fields, under each file's key in `documentKeys` (document id -> 64 hex).
export async function sealClinicalRecord(
  record: ClinicalRecord,
  summary: SummaryKey,
  documentKeys: ReadonlyMap<string, string>,
  kind: UploadKind = UPLOAD,
): Promise<SealedClinicalRecord> {
  if (record.enrolment) throw new Error('The genesis stays in clear: it holds no patient text.');
  if (record.patientId !== summary.patientId) throw new Error("A record is sealed under its own patient's summary key.");
  const { clear, sealed: summaryFields } = splitSealed(kind, record);
  const sealedFiles = await Promise.all(
    record.files.map(async (file) => {
      const key = documentKeys.get(file.documentId);
      if (!key) throw new Error(`No key for document ${file.documentId}.`);
      const parts = splitSealed(kind.file, file);
      const sealed = await sealPart(key, DOCUMENT_KEY, fileBinding(record, file.documentId), parts.sealed);
      return { ...(parts.clear as unknown as ChainFile), sealed };
    }),
  );
  const binding = { recordId: record.id, patientId: record.patientId, type: record.type };
  return {
    ...(clear as unknown as SealedClinicalRecord),
    files: sealedFiles,
    sealed: await sealPart(summary.key, summary.epochId, binding, summaryFields),
  };
}

// The upload as the reader may read it, or null when the summary key of its epoch is not in `summaryKeys`
// (epoch id -> key) or does not open it. A file opens only with its key in `documentKeys`.
export async function openClinicalRecord(
  record: SealedClinicalRecord,
  summaryKeys: ReadonlyMap<string, string>,
  documentKeys: ReadonlyMap<string, string>,
  kind: UploadKind = UPLOAD,
): Promise<OpenedClinicalRecord | null> {
  const summaryKey = summaryKeys.get(record.sealed.key);
  if (!summaryKey || record.sealed.key === DOCUMENT_KEY) return null;
  const binding = { recordId: record.id, patientId: record.patientId, type: record.type };
  const fields = await openPart(record.sealed, summaryKey, binding);
  const opened = fields && joinOpened(kind, record, fields);
  if (!opened) return null;
  const filesOpened: boolean[] = [];
  const files: ChainFile[] = [];
  for (const file of record.files) {
    const key = documentKeys.get(file.documentId);
    const parts =
      key && file.sealed.key === DOCUMENT_KEY ? await openPart(file.sealed, key, fileBinding(record, file.documentId)) : null;
    const named = parts && joinOpened(kind.file, file, parts);
    filesOpened.push(Boolean(named));
    const { sealed: _sealed, ...unopened } = file;
    files.push(named ? (named as unknown as ChainFile) : unopened);
  }
  return { record: { ...(opened as unknown as ClinicalRecord), files }, filesOpened };
}

// Whether a reader may have lost access to the patient since the epoch began at `since` (ms): a share revoked or
// expired, a grant ended or expired. Then what is written next is sealed under a new epoch.
export function rotationDue(state: LedgerState, patientId: string, since: number, now: number): boolean {
  const closedSince = (at: number) => at >= since && at <= now;
  const shares = (state.patientShares.get(patientId) ?? []).flatMap((id) => state.shares.get(id)?.share ?? []);
  const grants = (state.patientGrants.get(patientId) ?? []).flatMap((id) => state.grants.get(id)?.grant ?? []);
  return (
    shares.some(
      (share) =>
        (share.revokedAt !== undefined && closedSince(Date.parse(share.revokedAt))) ||
        (!isShareActive(share, now) && share.expiresAt !== null && closedSince(Date.parse(share.expiresAt))),
    ) ||
    grants.some(
      (grant) =>
        (grant.endedAt !== undefined && closedSince(Date.parse(grant.endedAt))) ||
        (!isGrantActive(grant, now) && closedSince(Date.parse(grant.expiresAt))),
    )
  );
}

const RECORD_SUBJECT = 'record:';
const recordSubject = (recordId: string) => `${RECORD_SUBJECT}${recordId}`;

// The id of the record whose text `sealed` holds, as its wraps name it (the rules check they name exactly it).
export function readerSealedRecordId(sealed: ReaderSealed): string {
  return sealed.wraps[0]?.documentId.slice(RECORD_SUBJECT.length) ?? '';
}
const RECORD_CID = 'sealed-text';

export async function sealToReaders(
  binding: SealBinding,
  fields: object,
  recipients: readonly Recipient[],
  from: string,
): Promise<ReaderSealed> {
  const key = bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
  const wraps = await Promise.all(
    recipients.map((recipient) => wrapKey(recordSubject(binding.recordId), RECORD_CID, key, recipient, from)),
  );
  return { part: await sealPart(key, RECORD_KEY, binding, fields), wraps };
}

// The fields for reader `readerId`, or null when no wrap of this record is theirs or the part is not this record's.
export async function openFromReaders(
  sealed: ReaderSealed,
  readerId: string,
  privateKey: CryptoKey,
  binding: SealBinding,
): Promise<Record<string, unknown> | null> {
  const wrap = sealed.wraps.find((candidate) => candidate.to === readerId);
  if (!wrap || wrap.documentId !== recordSubject(binding.recordId) || sealed.part.key !== RECORD_KEY) return null;
  const key = await unwrapKey(wrap, privateKey, RECORD_CID);
  return key ? openPart(sealed.part, key, binding) : null;
}

// …and of a grant or share once sealed: its reason or note sealed to exactly the patient and the doctor of it.
export function readerSealedProblem(sealed: unknown, patientId: string, doctorId: string, recordId: string): string | null {
  if (!isReaderSealed(sealed)) return 'the record holds no text sealed to its readers';
  const to = sealed.wraps.map((wrap) => wrap.to).sort();
  const subjects = sealed.wraps.every((wrap) => wrap.documentId === recordSubject(recordId));
  return subjects && to.join('|') === [patientId, doctorId].sort().join('|')
    ? null
    : "the record's text is not sealed to exactly its patient and its doctor";
}
