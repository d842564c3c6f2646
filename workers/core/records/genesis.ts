// The genesis: the diagnosis that opens the chain, enrols every listed user's keys and records the demo accounts'
// care-network choices. It holds no patient text, so it stays in clear (sealClinicalRecord refuses it).
import { isEncryptionPublicKey } from '../key-wraps';
import type { ClinicalRecord } from '../types';
import { LEDGER_AUTHOR } from '../constants';
import type { RecordKind } from './kind';
import { BASE, listOf, oneOf, optional, shaped, text, type Shape } from './shape';
import { FILE, clinicalProblem, foldClinical } from './upload';

const ED25519_PUBLIC_KEY = /^[A-Za-z0-9+/]{43}=$/; // 32 bytes in base64
const publicKey = (value: unknown) => typeof value === 'string' && ED25519_PUBLIC_KEY.test(value);
const tableOf = (check: (value: unknown) => boolean) => (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(check);

const ENROLMENT: Shape = {
  algorithm: oneOf('Ed25519'),
  ledger: publicKey,
  users: tableOf(publicKey),
  encryption: optional(tableOf(isEncryptionPublicKey)),
};

export const GENESIS: RecordKind<ClinicalRecord> = {
  shape: {
    ...BASE,
    type: text,
    files: listOf(shaped(FILE.shape)),
    enrolment: optional(shaped(ENROLMENT)),
    setupConsents: optional(tableOf((on) => typeof on === 'boolean')),
  },
  clear: {
    id: 'names the ledger: every device of the demo holds the same genesis',
    patientId: 'the first listed patient, whose records the genesis opens',
    doctorId: "that patient's doctor",
    type: 'a diagnosis, which only the genesis may be',
    title: 'a fixed text of the app, no patient’s text',
    description: 'a fixed text of the app, no patient’s text',
    timestamp: 'starts the chain’s time',
    files: 'none: the rules refuse files on the genesis',
    enrolment: 'the public keys every signature and key wrap is checked against',
    setupConsents: 'the demo accounts’ care-network choices, which decide who may release a key under a grant',
  },
  author: () => LEDGER_AUTHOR,
  fhir: { diagnosis: { loinc: '29548-5', display: 'Diagnosis Narrative', label: 'Diagnosis' } },
  rule: (state, record, { index }) => clinicalProblem(state, record, index),
  fold: foldClinical,
};
