// Legal synthetic ledgers for the benches (core-bench.ts in Node, browser-worker.ts in Chromium): records that
// pass verifyLedger, mostly emergency accesses (grant, reads, end or expiry, the patient's acknowledgement)
// with an upload every tenth episode and now and then a deletion, as the service itself would write them.
import { accessScope } from '../../workers/core/access';
import { EMERGENCY_DURATIONS } from '../../workers/core/constants';
import { PATIENTS, USERS } from '../../workers/core/directory';
import { acknowledgementRecord, deletionRecord, emergencyRecord, genesisRecord, iso } from '../../workers/core/ledger-records';
import type { AccessLevel, ChainFile, ChainRecord, ClinicalRecord, EmergencyGrant, KeyEnrolment } from '../../workers/core/types';

export const BENCH_START = Date.parse('2024-01-01T08:00:00.000Z');
const MINUTE_MS = 60_000;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const REASONS = [
  'Unconscious on arrival at the emergency department',
  'Severe allergic reaction, airway compromised',
  'Road traffic accident, needs medication history',
  'Chest pain, possible myocardial infarction',
];
const FILE_KINDS = [
  { ext: '.pdf', type: 'application/pdf', stem: 'lab-results' },
  { ext: '.jpg', type: 'image/jpeg', stem: 'scan' },
  { ext: '.png', type: 'image/png', stem: 'x-ray' },
  { ext: '.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', stem: 'referral' },
];

// Deterministic ids shaped like crypto.randomUUID(), so blocks are the size the app writes.
function uuid(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `b3e7c0de-0000-4000-8000-${hex}`;
}

// A CIDv0-shaped id (Qm + 44 base58 digits); browser-worker.ts replaces it with the real one of stored bytes.
export function placeholderCid(n: number): string {
  let x = (n + 1) * 2654435761;
  let out = 'Qm';
  for (let i = 0; i < 44; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += BASE58[x % 58];
  }
  return out;
}

interface LiveDocument {
  id: string;
  name: string;
}

const PLACEHOLDER_KEY = `${'A'.repeat(43)}=`; // 32 zero bytes: shaped like a public key, as the rules check

// Well-formed but not real keys: enough for the hash and rule benches, which check no signature.
export const PLACEHOLDER_ENROLMENT: KeyEnrolment = {
  algorithm: 'Ed25519',
  ledger: PLACEHOLDER_KEY,
  users: Object.fromEntries(USERS.map((user) => [user.id, PLACEHOLDER_KEY])),
};

// `height` records, genesis first, every grant closed and acknowledged by the end: a chain of exactly these
// records loads with nothing due (no expiry is written at load) and an empty emergency alert.
export function benchRecords(
  height: number,
  start: number = BENCH_START,
  enrolment: KeyEnrolment = PLACEHOLDER_ENROLMENT,
): ChainRecord[] {
  let ids = 0;
  let fileCount = 0;
  let t = start;
  const records: ChainRecord[] = [genesisRecord(uuid(ids++), iso(t), enrolment)];
  const live = new Map<string, LiveDocument[]>(PATIENTS.map((patient) => [patient.id, []]));
  const push = (record: ChainRecord) => {
    if (records.length < height) records.push(record);
  };
  const next = () => iso((t += MINUTE_MS));

  const upload = (episode: number) => {
    const patient = PATIENTS[episode % PATIENTS.length];
    const files: ChainFile[] = [];
    const count = episode % 7 === 0 ? 3 : episode % 3 === 0 ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const n = fileCount++;
      const kind = FILE_KINDS[n % FILE_KINDS.length];
      files.push({
        documentId: uuid(ids++),
        name: `${kind.stem}-${n + 1}${kind.ext}`,
        type: kind.type,
        size: 1024 + ((n * 7919) % 15_360), // 1 to 16 KB
        cid: placeholderCid(n),
      });
    }
    const record: ClinicalRecord = {
      id: uuid(ids++),
      patientId: patient.id,
      doctorId: patient.doctorId ?? '',
      type: episode % 2 ? 'prescription' : 'test_report',
      title: episode % 2 ? `Prescription renewal ${episode}` : `Blood panel, visit ${episode}`,
      description: 'Complete blood count and lipid panel; follow-up in six weeks if LDL stays above target.',
      files,
      timestamp: next(),
    };
    push(record);
    for (const file of files) live.get(patient.id)?.push({ id: file.documentId, name: file.name });
  };

  const deletion = (episode: number) => {
    const patient = PATIENTS[episode % PATIENTS.length];
    const documents = live.get(patient.id) ?? [];
    const [document] = documents.splice(episode % documents.length, 1);
    const at = next();
    push(
      deletionRecord(
        uuid(ids++),
        {
          id: document.id,
          fileName: document.name,
          fileType: '',
          fileSize: 1,
          uploadDate: at,
          ipfsHash: '',
          patientId: patient.id,
          doctorId: patient.doctorId ?? '',
          isEncrypted: true,
        },
        at,
      ),
    );
  };

  // grant, 1 to 3 overview reads, a document read under a full grant, the end (every sixth: the expiry), the acknowledgement
  const emergency = (episode: number) => {
    const patient = PATIENTS[episode % PATIENTS.length];
    const doctorId = PATIENTS[(episode + 1) % PATIENTS.length].doctorId ?? ''; // the other patient's doctor
    const accessLevel: AccessLevel = episode % 3 === 2 ? 'basic' : 'full';
    const durationMinutes = EMERGENCY_DURATIONS[episode % EMERGENCY_DURATIONS.length];
    const at = Date.parse(next());
    const grant: EmergencyGrant = {
      id: uuid(ids++),
      patientId: patient.id,
      doctorId,
      accessLevel,
      reason: REASONS[episode % REASONS.length],
      durationMinutes,
      expiresAt: iso(at + durationMinutes * MINUTE_MS),
      createdAt: iso(at),
      isActive: true,
    };
    push(emergencyRecord(uuid(ids++), grant, 'granted', grant.createdAt));
    const scope = accessScope(accessLevel);
    for (let i = 0; i <= episode % 3; i++) push(emergencyRecord(uuid(ids++), grant, 'read', next(), { what: scope.legacyRead }));
    const documents = live.get(patient.id) ?? [];
    if (scope.documents && documents.length > 0) {
      const document = documents[episode % documents.length];
      push(emergencyRecord(uuid(ids++), grant, 'read', next(), { what: `document "${document.name}"`, documentId: document.id }));
    }
    if (episode % 6 === 5) {
      t = Math.max(t + MINUTE_MS, Date.parse(grant.expiresAt));
      push(emergencyRecord(uuid(ids++), grant, 'expired', iso(t)));
    } else push(emergencyRecord(uuid(ids++), grant, 'ended', next()));
    push(acknowledgementRecord(uuid(ids++), patient.id, [grant.id], next()));
  };

  const EPISODE_MAX = 7; // blocks of the longest emergency episode
  for (let episode = 1; records.length < height; episode++) {
    const remaining = height - records.length;
    const patient = PATIENTS[episode % PATIENTS.length];
    if (episode % 10 === 0 || remaining < EPISODE_MAX) upload(episode);
    else if (episode % 23 === 0 && (live.get(patient.id)?.length ?? 0) >= 3) deletion(episode);
    else emergency(episode);
  }
  return records;
}

// The files of upload records whose documents no later block deleted: each needs a key row and a bytes row.
export function liveFiles(records: readonly ChainRecord[]): ChainFile[] {
  const deleted = new Set(records.flatMap((record) => (record.type === 'document_deleted' ? [record.documentId] : [])));
  return records.flatMap((record) => ('files' in record ? record.files : [])).filter((file) => !deleted.has(file.documentId));
}

// "12,345 emergency_access, 678 prescription, ...": what the bench chain is made of.
export function countKinds(records: readonly ChainRecord[]): string {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.type, (counts.get(record.type) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([type, n]) => `${n.toLocaleString('en')} ${type}`)
    .join(', ');
}
