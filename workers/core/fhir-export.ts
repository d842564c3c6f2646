// The FHIR R4 resources of a patient's export (docs/decisions/fhir-portability.md): pure builders over the
// projection of the chain. Loaded only when an export runs (workers/ledger/portability.ts imports it lazily).
import type {
  AllergyIntolerance,
  Attachment,
  AuditEvent,
  Bundle,
  BundleEntry,
  CodeableConcept,
  Coding,
  DocumentReference,
  Identifier,
  Observation,
  Patient as FhirPatient,
  PatientContact,
  Practitioner,
  Provenance,
  Resource,
} from '@medplum/fhirtypes';
import { KINDS } from './records/kinds';
import type { FhirDocumentType } from './records/kind';
import type { ClinicalRecordType, Doctor, EmergencyEvent, Patient, ChainFile, ClinicalRecord } from './types';

export const FHIR_BASE = 'https://medledger.demo/fhir';
export const SYSTEMS = {
  userId: `${FHIR_BASE}/sid/user-id`,
  license: `${FHIR_BASE}/sid/license-number`,
  recordId: `${FHIR_BASE}/sid/record-id`,
  blockHash: `${FHIR_BASE}/sid/block-hash`,
  contentId: `${FHIR_BASE}/sid/ipfs-cid`, // the IPFS content id (CIDv0) of the stored, encrypted bytes
  recordType: `${FHIR_BASE}/CodeSystem/record-type`,
  emergencyEvent: `${FHIR_BASE}/CodeSystem/emergency-event`,
  description: `${FHIR_BASE}/StructureDefinition/record-description`,
  loinc: 'http://loinc.org',
  actReason: 'http://terminology.hl7.org/CodeSystem/v3-ActReason',
  dicom: 'http://dicom.nema.org/resources/ontology/DCM',
  participant: 'http://terminology.hl7.org/CodeSystem/provenance-participant-type',
  contactRole: 'http://terminology.hl7.org/CodeSystem/v2-0131',
  roleCode: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode',
  allergyClinical: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
  observationCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
} as const;

// The Health Overview's blood type, as laboratories code it (the import finds it by this code).
export const BLOOD_TYPE_CODE: Coding = { system: SYSTEMS.loinc, code: '882-1', display: 'ABO and Rh group [Type] in Blood' };
export const EMERGENCY_CONTACT_ROLE: Coding = { system: SYSTEMS.contactRole, code: 'C', display: 'Emergency Contact' };

// HL7 v3 family roles of the relationships the directory uses; any other is kept as text.
const FAMILY_ROLES: Record<string, Coding> = {
  spouse: { system: SYSTEMS.roleCode, code: 'SPS', display: 'spouse' },
  husband: { system: SYSTEMS.roleCode, code: 'HUSB', display: 'husband' },
  wife: { system: SYSTEMS.roleCode, code: 'WIFE', display: 'wife' },
  daughter: { system: SYSTEMS.roleCode, code: 'DAUC', display: 'daughter' },
  son: { system: SYSTEMS.roleCode, code: 'SONC', display: 'son' },
  mother: { system: SYSTEMS.roleCode, code: 'MTH', display: 'mother' },
  father: { system: SYSTEMS.roleCode, code: 'FTH', display: 'father' },
  sibling: { system: SYSTEMS.roleCode, code: 'SIB', display: 'sibling' },
  friend: { system: SYSTEMS.roleCode, code: 'FRND', display: 'unrelated friend' },
};

export interface ContactParts {
  name: string;
  relationship?: string;
  phone?: string;
}

// The directory keeps the contact as one line, "Mark Johnson (spouse) +1 555 0142"; FHIR wants its parts apart.
export function contactParts(contact: string): ContactParts {
  const match = /^(.+?)\s*\(([^)]+)\)\s*(\+?[\d][\d\s().-]*)?$/.exec(contact.trim());
  if (!match) return { name: contact.trim() };
  const [, name, relationship, phone] = match;
  return { name, relationship, ...(phone ? { phone: phone.trim() } : {}) };
}

// The one line the screens show, from the parts (the import gives it back in the directory's own form).
export function contactLine({ name, relationship, phone }: ContactParts): string {
  return [name, relationship ? `(${relationship})` : '', phone ?? ''].filter(Boolean).join(' ');
}

// LOINC document types of the record types, from each kind's module (records/); the import reads them back, with the
// MedLedger code beside them.
const FHIR_TYPES = Object.fromEntries(
  Object.entries(KINDS).flatMap(([type, kind]) => {
    const mapped = (kind.fhir as Partial<Record<string, FhirDocumentType>> | undefined)?.[type];
    return mapped ? [[type, mapped]] : [];
  }),
) as Record<ClinicalRecordType, FhirDocumentType>;
export const LOINC_OF_TYPE = Object.fromEntries(
  Object.entries(FHIR_TYPES).map(([type, { loinc, display }]) => [type, { system: SYSTEMS.loinc, code: loinc, display }]),
) as Record<ClinicalRecordType, Coding>;
const TYPE_LABEL = (type: ClinicalRecordType) => FHIR_TYPES[type].label;

export const BREAK_THE_GLASS: Coding = { system: SYSTEMS.actReason, code: 'BTG', display: 'break the glass' };

export interface ExportedFile {
  file: ChainFile;
  uploadedAt: string;
  deleted: boolean;
  data?: string; // base64 of the decrypted bytes; absent "without files" or for a deleted file
}

export interface ExportedRecord {
  record: ClinicalRecord;
  blockIndex: number;
  blockHash: string;
  files: ExportedFile[];
}

export interface AccessEvent {
  id: string; // unique in the bundle: the grant id and the event's place in it
  grantId: string;
  event: EmergencyEvent;
  at: string;
  doctorId: string;
  reason: string;
  accessLevel: string;
  what?: string; // for a read: what was read
}

function urlOf(resource: Resource & { id?: string }): string {
  return `${FHIR_BASE}/${resource.resourceType}/${resource.id}`;
}

export function entryOf(resource: Resource & { id?: string }): BundleEntry {
  return { fullUrl: urlOf(resource), resource };
}

// The Bundle around the entries; its entries are written one by one (a big export is never one object).
export function bundleShell(id: string, exportedAt: string): Bundle {
  return { resourceType: 'Bundle', id, type: 'collection', timestamp: exportedAt, entry: [] };
}

function fhirGender(gender: string): FhirPatient['gender'] {
  const lower = gender.toLowerCase();
  return lower === 'female' || lower === 'male' || lower === 'other' ? lower : 'unknown';
}

function humanName(name: string) {
  const words = name.replace(/^Dr\.\s+/, '').split(/\s+/);
  return { text: name, family: words.at(-1), given: words.slice(0, -1) };
}

export function patientResource(patient: Patient): FhirPatient {
  return {
    resourceType: 'Patient',
    id: patient.id,
    identifier: [{ system: SYSTEMS.userId, value: patient.id }],
    name: [humanName(patient.name)],
    telecom: [{ system: 'email', value: patient.email }],
    gender: fhirGender(patient.gender),
    birthDate: patient.dateOfBirth,
    ...(patient.emergencyContact ? { contact: [emergencyContactOf(patient.emergencyContact)] } : {}),
    ...(patient.doctorId ? { generalPractitioner: [{ reference: `Practitioner/${patient.doctorId}` }] } : {}),
  };
}

function emergencyContactOf(line: string): PatientContact {
  const { name, relationship, phone } = contactParts(line);
  const family = relationship ? FAMILY_ROLES[relationship.toLowerCase()] : undefined;
  return {
    relationship: [
      { coding: [EMERGENCY_CONTACT_ROLE] },
      ...(relationship ? [{ ...(family ? { coding: [family] } : {}), text: relationship }] : []),
    ],
    name: { text: name },
    ...(phone ? { telecom: [{ system: 'phone', value: phone, use: 'mobile' }] } : {}),
  };
}

// One AllergyIntolerance per allergy of the Health Overview, as the patient's profile names it.
export function allergyIntolerances(patient: Patient): AllergyIntolerance[] {
  return patient.allergies.map((allergy, i) => ({
    resourceType: 'AllergyIntolerance',
    id: `${patient.id}-allergy-${i + 1}`,
    clinicalStatus: { coding: [{ system: SYSTEMS.allergyClinical, code: 'active', display: 'Active' }] },
    code: { text: allergy },
    patient: { reference: `Patient/${patient.id}` },
  }));
}

// The blood type of the Health Overview, as an Observation coded with LOINC 882-1.
export function bloodTypeObservation(patient: Patient): Observation {
  return {
    resourceType: 'Observation',
    id: `${patient.id}-blood-type`,
    status: 'final',
    category: [{ coding: [{ system: SYSTEMS.observationCategory, code: 'laboratory', display: 'Laboratory' }] }],
    code: { coding: [BLOOD_TYPE_CODE], text: 'Blood type' },
    subject: { reference: `Patient/${patient.id}` },
    valueCodeableConcept: { text: patient.bloodType },
  };
}

export function practitionerResource(doctor: Doctor): Practitioner {
  return {
    resourceType: 'Practitioner',
    id: doctor.id,
    identifier: [
      { system: SYSTEMS.userId, value: doctor.id },
      { system: SYSTEMS.license, value: doctor.licenseNumber },
    ],
    name: [humanName(doctor.name)],
    telecom: [{ system: 'email', value: doctor.email }],
    qualification: [{ code: { text: doctor.specialization }, issuer: { display: doctor.hospital } }],
  };
}

function recordTypeConcept(type: ClinicalRecordType): CodeableConcept {
  return {
    coding: [LOINC_OF_TYPE[type], { system: SYSTEMS.recordType, code: type, display: TYPE_LABEL(type) }],
    text: TYPE_LABEL(type),
  };
}

function attachmentOf({ file, uploadedAt, data }: ExportedFile): Attachment {
  return {
    contentType: file.type,
    ...(data !== undefined ? { data } : {}),
    title: file.name,
    size: file.size,
    creation: uploadedAt,
  };
}

// One record, as a DocumentReference. A record whose every file was deleted is 'entered-in-error'.
export function documentReference(exported: ExportedRecord): DocumentReference {
  const { record, blockHash, files } = exported;
  const identifiers: Identifier[] = [
    { system: SYSTEMS.recordId, value: record.id },
    { system: SYSTEMS.blockHash, value: blockHash },
    ...files.map(({ file }) => ({ system: SYSTEMS.contentId, value: file.cid })),
  ];
  const allDeleted = files.length > 0 && files.every((file) => file.deleted);
  return {
    resourceType: 'DocumentReference',
    id: record.id,
    ...(record.description ? { extension: [{ url: SYSTEMS.description, valueString: record.description }] } : {}),
    identifier: identifiers,
    status: allDeleted ? 'entered-in-error' : 'current',
    type: recordTypeConcept(record.type),
    category: [{ coding: [{ system: SYSTEMS.recordType, code: record.type, display: TYPE_LABEL(record.type) }] }],
    subject: { reference: `Patient/${record.patientId}` },
    date: record.documentDate ?? record.timestamp,
    author: [{ reference: `Patient/${record.patientId}` }],
    description: record.title,
    content:
      files.length > 0 ? files.map((file) => ({ attachment: attachmentOf(file) })) : [{ attachment: { title: record.title } }],
  };
}

// Where the record comes from: its block on the MedLedger chain (index and hash).
export function provenanceOf(exported: ExportedRecord): Provenance {
  const { record, blockIndex, blockHash } = exported;
  return {
    resourceType: 'Provenance',
    id: `block-${blockIndex}`,
    target: [{ reference: `DocumentReference/${record.id}` }],
    recorded: record.timestamp,
    agent: [
      {
        type: { coding: [{ system: SYSTEMS.participant, code: 'author', display: 'Author' }] },
        who: { reference: `Patient/${record.patientId}` },
      },
    ],
    entity: [
      {
        role: 'source',
        what: { identifier: { system: SYSTEMS.blockHash, value: blockHash }, display: `MedLedger block #${blockIndex}` },
      },
    ],
  };
}

const EVENT_ACTION: Record<EmergencyEvent, AuditEvent['action']> = { granted: 'E', read: 'R', ended: 'E', expired: 'E' };
const EVENT_LABEL: Record<EmergencyEvent, string> = {
  granted: 'Emergency access started',
  read: 'Record read under emergency access',
  ended: 'Emergency access ended',
  expired: 'Emergency access expired',
};

// One emergency access event: its start, each read, its end or expiry, with break-the-glass as the purpose.
export function auditEventOf(event: AccessEvent, patientId: string): AuditEvent {
  const purpose: CodeableConcept = { coding: [BREAK_THE_GLASS], text: event.reason };
  return {
    resourceType: 'AuditEvent',
    id: event.id,
    type: { system: SYSTEMS.dicom, code: '110110', display: 'Patient Record' },
    subtype: [{ system: SYSTEMS.emergencyEvent, code: event.event, display: EVENT_LABEL[event.event] }],
    action: EVENT_ACTION[event.event],
    recorded: event.at,
    outcome: '0',
    purposeOfEvent: [purpose],
    agent: [{ who: { reference: `Practitioner/${event.doctorId}` }, requestor: true, purposeOfUse: [purpose] }],
    source: { observer: { display: 'MedLedger' } },
    entity: [
      {
        what: { reference: `Patient/${patientId}` },
        detail: [
          { type: 'grant', valueString: event.grantId },
          { type: 'accessLevel', valueString: event.accessLevel },
          ...(event.what ? [{ type: 'read', valueString: event.what }] : []),
        ],
      },
    ],
  };
}
