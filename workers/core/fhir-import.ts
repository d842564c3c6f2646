// Reads a FHIR R4 Bundle given by the user (MedLedger's own export or another system's): which entries become
// records, which are skipped and why, and a clear message naming the entry for anything that cannot be read;
// also whom its Patient names, so records of someone else are imported only when the patient confirms.
// Loaded only when an import runs (workers/ledger/portability.ts imports it lazily).
import type {
  Attachment,
  CodeableConcept,
  DiagnosticReport,
  DocumentReference,
  Patient as FhirPatient,
} from '@medplum/fhirtypes';
import { ACCEPTED_EXTENSIONS } from './constants';
import { base64ToBytes } from './base64';
import { ledgerError } from './errors';
import { LOINC_OF_TYPE, SYSTEMS } from './fhir-export';
import { MIME_TYPES } from './file-types';
import type { LedgerState } from './projection';
import { fileExtension, mimeEssence } from './text-input';
import type { Patient, UploadRecordType } from './types';

export interface ImportedFile {
  name: string;
  type: string;
  bytes: ArrayBuffer;
}

export interface ImportCandidate {
  entry: string; // how the messages name it: 'Entry 3 (DocumentReference "Chest X-ray")'
  title: string;
  description: string;
  type: UploadRecordType;
  date?: string; // ISO 8601
  files: ImportedFile[];
}

export interface SkippedEntry {
  entry: number; // 1-based place in the Bundle
  resourceType: string;
  reason: string;
}

// Who a Patient resource of the Bundle says it is.
export interface BundlePatient {
  medLedgerId?: string; // MedLedger's patient identifier, when the Bundle carries it
  names: string[]; // each HumanName as text ('Sarah Johnson'), whitespace collapsed
  birthDate?: string; // a FHIR date: YYYY, YYYY-MM or YYYY-MM-DD
}

export interface OtherPatient {
  name: string;
  birthDate?: string;
}

function invalid(message: string): never {
  throw ledgerError('ValidationError', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function codings(concepts: (CodeableConcept | undefined)[]) {
  return concepts.flatMap((concept) => (Array.isArray(concept?.coding) ? concept.coding : []));
}

// Only two kinds of upload exist: a prescription when any coding or text says so, otherwise a test report.
function recordTypeOf(concepts: (CodeableConcept | undefined)[]): UploadRecordType {
  const prescription = codings(concepts).some(
    (coding) =>
      (coding.system === SYSTEMS.recordType && coding.code === 'prescription') ||
      (coding.system === LOINC_OF_TYPE.prescription.system && coding.code === LOINC_OF_TYPE.prescription.code),
  );
  const said = concepts.some((concept) => /prescri/i.test(text(concept?.text)));
  return prescription || said ? 'prescription' : 'test_report';
}

// A name with an accepted extension: another system's attachment title is often a caption ("Discharge summary").
function fileNameOf(attachment: Attachment, index: number): string {
  const title = text(attachment.title).trim() || `document-${index + 1}`;
  if ((ACCEPTED_EXTENSIONS as readonly string[]).includes(fileExtension(title))) return title;
  const type = mimeEssence(text(attachment.contentType));
  const extension = Object.entries(MIME_TYPES).find(([, types]) => types.includes(type))?.[0];
  return extension ? `${title}${extension}` : title;
}

function isoDate(value: unknown, label: string): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) invalid(`${label}: the date "${value.slice(0, 40)}" is not a date.`);
  return new Date(time).toISOString();
}

function filesOf(attachments: Attachment[], label: string): ImportedFile[] {
  return attachments.flatMap((attachment, index) => {
    if (attachment.data === undefined) return []; // a link or a metadata-only attachment: nothing to store
    const bytes = typeof attachment.data === 'string' ? base64ToBytes(attachment.data) : null;
    if (!bytes) invalid(`${label}: the data of attachment ${index + 1} is not valid base64.`);
    return [{ name: fileNameOf(attachment, index), type: text(attachment.contentType), bytes: bytes.buffer }];
  });
}

function documentReferenceCandidate(resource: DocumentReference, label: (title: string) => string, known: RecordBlocks) {
  const description = text(resource.description);
  const title = description || text(resource.type?.text) || text(resource.content?.[0]?.attachment?.title) || 'Imported document';
  const named = label(title);
  const recordId = (Array.isArray(resource.identifier) ? resource.identifier : []).find(
    (identifier) => identifier?.system === SYSTEMS.recordId,
  )?.value;
  const block = typeof recordId === 'string' ? known.get(recordId) : undefined;
  if (block !== undefined) return { skip: `already in your records (block ${block})` };
  if (resource.status === 'entered-in-error') return { skip: 'marked entered-in-error' };
  const attachments = (Array.isArray(resource.content) ? resource.content : []).map((content) => content?.attachment ?? {});
  const files = filesOf(attachments, named);
  if (files.length === 0) return { skip: 'no attached data' };
  const extension = resource.extension?.find((item) => item?.url === SYSTEMS.description)?.valueString;
  const candidate: ImportCandidate = {
    entry: named,
    title,
    description: text(extension),
    type: recordTypeOf([resource.type, ...(resource.category ?? [])]),
    date: isoDate(resource.date, named) ?? isoDate(attachments[0]?.creation, named),
    files,
  };
  return { candidate };
}

function diagnosticReportCandidate(resource: DiagnosticReport, label: (title: string) => string) {
  const title = text(resource.code?.text) || text(resource.code?.coding?.[0]?.display) || 'Imported report';
  const named = label(title);
  if (resource.status === 'entered-in-error' || resource.status === 'cancelled') return { skip: `status ${resource.status}` };
  const files = filesOf(Array.isArray(resource.presentedForm) ? resource.presentedForm : [], named);
  if (files.length === 0) return { skip: 'no presentedForm with data' };
  const candidate: ImportCandidate = {
    entry: named,
    title,
    description: text(resource.conclusion),
    type: 'test_report',
    date:
      isoDate(resource.effectiveDateTime, named) ??
      isoDate(resource.effectivePeriod?.start, named) ??
      isoDate(resource.issued, named),
    files,
  };
  return { candidate };
}

// MedLedger record id -> index of its block, for the records already in the signed-in patient's chart.
export type RecordBlocks = ReadonlyMap<string, number>;

export function recordBlocks(state: LedgerState, patientId: string): RecordBlocks {
  return new Map((state.records.get(patientId) ?? []).map(({ record, index }) => [record.id, index]));
}

// Control and format characters (zero-width, text direction) dropped: the warning shows the name that was compared.
const spaced = (value: string) =>
  value
    .replace(/(?!\s)[\p{Cc}\p{Cf}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
const FHIR_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

function bundlePatient(resource: FhirPatient): BundlePatient {
  const identifiers = Array.isArray(resource.identifier) ? resource.identifier : [];
  const medLedgerId = identifiers.find((identifier) => identifier?.system === SYSTEMS.userId)?.value;
  const names = (Array.isArray(resource.name) ? resource.name : []).flatMap((name) => {
    const given = Array.isArray(name?.given) ? name.given.filter((part) => typeof part === 'string') : [];
    const parts = spaced(text(name?.text) || [...given, text(name?.family)].join(' '));
    return parts ? [parts.slice(0, 100)] : [];
  });
  const birthDate = typeof resource.birthDate === 'string' && FHIR_DATE.test(resource.birthDate) ? resource.birthDate : undefined;
  return { ...(typeof medLedgerId === 'string' ? { medLedgerId } : {}), names, ...(birthDate ? { birthDate } : {}) };
}

// true or false when the Patient says who it is; undefined when it names nobody (no identifier, name or birth date).
function isPatient(candidate: BundlePatient, patient: Patient): boolean | undefined {
  if (candidate.medLedgerId !== undefined) return candidate.medLedgerId === patient.id;
  if (candidate.names.length === 0 && !candidate.birthDate) return undefined;
  const fold = (name: string) => spaced(name).normalize('NFC').toLowerCase();
  const named = candidate.names.length === 0 || candidate.names.some((name) => fold(name) === fold(patient.name));
  return named && (!candidate.birthDate || patient.dateOfBirth.startsWith(candidate.birthDate));
}

// The first Patient of the Bundle who is not the signed-in patient, as the warning names them.
export function otherPatientOf(patients: BundlePatient[], patient: Patient): OtherPatient | undefined {
  const other = patients.find((candidate) => isPatient(candidate, patient) === false);
  if (!other) return undefined;
  return { name: other.names[0] ?? 'a patient with no name', ...(other.birthDate ? { birthDate: other.birthDate } : {}) };
}

// Throws a ValidationError naming the entry for anything that cannot be read; never stores anything itself.
export function readBundle(
  json: string,
  known: RecordBlocks = new Map(),
): { records: ImportCandidate[]; skipped: SkippedEntry[]; patients: BundlePatient[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    invalid('The file is not valid JSON.');
  }
  if (!isObject(parsed)) invalid('The file is not a FHIR resource: it holds no JSON object.');
  if (parsed.resourceType !== 'Bundle') {
    invalid(
      `The file holds a FHIR ${typeof parsed.resourceType === 'string' ? `"${parsed.resourceType.slice(0, 40)}"` : 'resource without a resourceType'}, not a Bundle.`,
    );
  }
  const entries = Array.isArray(parsed.entry) ? (parsed.entry as unknown[]) : [];
  if (entries.length === 0) invalid('The Bundle has no entries.');
  const records: ImportCandidate[] = [];
  const skipped: SkippedEntry[] = [];
  const patients: BundlePatient[] = [];
  entries.forEach((entry, i) => {
    const resource = isObject(entry) ? entry.resource : undefined;
    if (!isObject(resource) || typeof resource.resourceType !== 'string') {
      invalid(`Entry ${i + 1} holds no resource with a resourceType.`);
    }
    const type = resource.resourceType;
    const label = (title: string) => `Entry ${i + 1} (${type} "${title.slice(0, 60)}")`;
    if (type === 'Patient') patients.push(bundlePatient(resource as unknown as FhirPatient));
    const read =
      type === 'DocumentReference'
        ? documentReferenceCandidate(resource as unknown as DocumentReference, label, known)
        : type === 'DiagnosticReport'
          ? diagnosticReportCandidate(resource as unknown as DiagnosticReport, label)
          : { skip: 'not a kind of resource MedLedger stores as a record' };
    if ('candidate' in read && read.candidate) records.push(read.candidate);
    else skipped.push({ entry: i + 1, resourceType: type, reason: read.skip ?? '' });
  });
  return { records, skipped, patients };
}
