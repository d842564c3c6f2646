// Reads a FHIR R4 Bundle given by the user (MedLedger's own export or another system's): which entries become
// records, which are skipped and why, and a clear message naming the entry for anything that cannot be read;
// also whom its Patient names, so records of someone else are imported only when the patient confirms.
// Loaded only when an import runs (workers/ledger/portability.ts imports it lazily).
import type {
  AllergyIntolerance,
  Attachment,
  CodeableConcept,
  DiagnosticReport,
  DocumentReference,
  Observation,
  Patient as FhirPatient,
} from '@medplum/fhirtypes';
import { ACCEPTED_EXTENSIONS } from './constants';
import { base64ToBytes } from './base64';
import { ledgerError } from './errors';
import { BLOOD_TYPE_CODE, EMERGENCY_CONTACT_ROLE, LOINC_OF_TYPE, SYSTEMS, contactLine } from './fhir-export';
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
  reason: string; // in a patient's words: why it was not added as a record
  title?: string; // a document's or report's title
}

// Why an entry that is not a document is not added, in a patient's words.
const NOT_A_RECORD: Record<string, string> = {
  Patient: 'your profile here is kept by your clinic',
  Practitioner: 'MedLedger keeps its own list of doctors',
  Provenance: 'this chain keeps its own proof of where each record came from',
  AuditEvent: 'this chain keeps its own emergency access history',
};
const OTHER_KIND = 'MedLedger adds only documents and reports as records';

// Who a Patient resource of the Bundle says it is.
export interface BundlePatient {
  medLedgerId?: string; // MedLedger's patient identifier, when the Bundle carries it
  names: string[]; // each HumanName as text ('Sarah Johnson'), whitespace collapsed
  birthDate?: string; // a FHIR date: YYYY, YYYY-MM or YYYY-MM-DD
}

// The Health Overview the Bundle holds: its AllergyIntolerances, the blood type Observation, the Patient's emergency contact.
export interface BundleOverview {
  allergies: string[];
  bloodType?: string;
  emergencyContact?: string; // in the directory's one-line form: "Mark Johnson (spouse) +1 555 0142"
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
  if (block !== undefined) return { title, skip: `already in your records (block #${block})` };
  if (resource.status === 'entered-in-error') return { title, skip: 'the file says it was entered in error or deleted' };
  const attachments = (Array.isArray(resource.content) ? resource.content : []).map((content) => content?.attachment ?? {});
  const files = filesOf(attachments, named);
  if (files.length === 0) return { title, skip: 'the file describes it but does not hold the document itself' };
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
  if (resource.status === 'entered-in-error' || resource.status === 'cancelled')
    return { title, skip: `the file says it was ${resource.status === 'cancelled' ? 'cancelled' : 'entered in error'}` };
  const files = filesOf(Array.isArray(resource.presentedForm) ? resource.presentedForm : [], named);
  if (files.length === 0) return { title, skip: 'the file describes it but does not hold the report itself' };
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

function conceptText(concept: CodeableConcept | undefined): string {
  return spaced(text(concept?.text) || text(codings([concept])[0]?.display)).slice(0, 100);
}

function allergyOf(resource: AllergyIntolerance): string {
  const status = codings([resource.verificationStatus])[0]?.code;
  return status === 'refuted' || status === 'entered-in-error' ? '' : conceptText(resource.code);
}

function isBloodType(resource: Observation): boolean {
  return codings([resource.code]).some(
    (coding) => coding.system === BLOOD_TYPE_CODE.system && coding.code === BLOOD_TYPE_CODE.code,
  );
}

function bloodTypeOf(resource: Observation): string {
  return conceptText(resource.valueCodeableConcept) || spaced(text(resource.valueString)).slice(0, 20);
}

// The Patient's emergency contact (relationship code C), its phone from telecom, as one line.
function emergencyContactOf(resource: FhirPatient): string | undefined {
  const contact = (Array.isArray(resource.contact) ? resource.contact : []).find((candidate) =>
    codings(candidate?.relationship ?? []).some(
      (coding) => coding.system === EMERGENCY_CONTACT_ROLE.system && coding.code === EMERGENCY_CONTACT_ROLE.code,
    ),
  );
  if (!contact) return undefined;
  const relationship = (contact.relationship ?? [])
    .filter((concept) => !codings([concept]).some((coding) => coding.code === EMERGENCY_CONTACT_ROLE.code))
    .map(conceptText)
    .find(Boolean);
  const name = spaced(text(contact.name?.text) || [...(contact.name?.given ?? []), text(contact.name?.family)].join(' '));
  const phone = (contact.telecom ?? []).find((telecom) => telecom?.system === 'phone')?.value;
  const line = contactLine({
    name,
    ...(relationship ? { relationship } : {}),
    ...(typeof phone === 'string' ? { phone: spaced(phone) } : {}),
  });
  return line ? line.slice(0, 200) : undefined;
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
): { records: ImportCandidate[]; skipped: SkippedEntry[]; patients: BundlePatient[]; overview: BundleOverview } {
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
  const overview: BundleOverview = { allergies: [] };
  entries.forEach((entry, i) => {
    const resource = isObject(entry) ? entry.resource : undefined;
    if (!isObject(resource) || typeof resource.resourceType !== 'string') {
      invalid(`Entry ${i + 1} holds no resource with a resourceType.`);
    }
    const type = resource.resourceType;
    const label = (title: string) => `Entry ${i + 1} (${type} "${title.slice(0, 60)}")`;
    if (type === 'Patient') {
      patients.push(bundlePatient(resource as unknown as FhirPatient));
      overview.emergencyContact ??= emergencyContactOf(resource as unknown as FhirPatient);
    }
    if (type === 'AllergyIntolerance') {
      const allergy = allergyOf(resource as unknown as AllergyIntolerance);
      if (allergy && !overview.allergies.includes(allergy)) overview.allergies.push(allergy);
      return; // read into the health overview, not a record
    }
    if (type === 'Observation' && isBloodType(resource as unknown as Observation)) {
      const bloodType = bloodTypeOf(resource as unknown as Observation);
      if (bloodType && overview.bloodType === undefined) overview.bloodType = bloodType;
      return;
    }
    const read =
      type === 'DocumentReference'
        ? documentReferenceCandidate(resource as unknown as DocumentReference, label, known)
        : type === 'DiagnosticReport'
          ? diagnosticReportCandidate(resource as unknown as DiagnosticReport, label)
          : { skip: NOT_A_RECORD[type] ?? OTHER_KIND };
    if ('candidate' in read && read.candidate) records.push(read.candidate);
    else
      skipped.push({
        entry: i + 1,
        resourceType: type,
        reason: read.skip ?? OTHER_KIND,
        ...('title' in read && read.title ? { title: read.title.slice(0, 60) } : {}),
      });
  });
  return { records, skipped, patients, overview };
}
