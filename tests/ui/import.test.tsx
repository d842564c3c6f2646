import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../src/components/format';
import { joined } from '../support/portability-fixtures';
import { openLedger, renderApp } from './render-app';
import { seedRecords } from './record-seeds';

const SARAHS_RECORD = 'Blood work and imaging, March';

// Sarah's FHIR export (with files), made in the same browser, then the records screen open as Michael.
async function michaelWithSarahsExport() {
  const ledger = openLedger();
  await seedRecords(ledger.service, 'patient-1', [{ title: SARAHS_RECORD }]);
  const exported = await ledger.service.exportFhir('export-sarah', { withFiles: true });
  if (!exported) throw new Error('the export was cancelled');
  const file = new File([joined(exported)], exported.fileName, { type: exported.mimeType });
  const view = renderApp('/patient/records', { ledger, signedInAs: 'patient-2' });
  const section = await screen.findByRole('region', { name: 'Your Records' });
  await within(section).findByText(/No records yet/); // Michael's chart, loaded
  await view.user.click(screen.getByRole('button', { name: 'Import (FHIR)' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import (FHIR)' });
  await view.user.upload(within(dialog).getByLabelText('Bundle file'), file);
  await view.user.click(within(dialog).getByRole('button', { name: 'Import' }));
  return { ...view, ledger, section, dialog };
}

const WARNING =
  'This file holds the records of Sarah Johnson (born Apr 12, 1988), not yours. Import them into your records anyway?';

describe('Import (FHIR) of another patient’s export', () => {
  it('warns, naming the other patient, with Cancel focused, and imports nothing until confirmed', async () => {
    const { ledger, section, dialog, user } = await michaelWithSarahsExport();
    const height = (await ledger.service.chainStatus()).height;
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(WARNING);
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    await waitFor(() => expect(cancel).toHaveFocus());
    expect(within(dialog).getByRole('button', { name: 'Import anyway' })).toBeEnabled();
    expect(within(dialog).queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    await user.keyboard('{Enter}'); // the default answer: the focused Cancel
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Nothing was imported.');
    expect(within(dialog).queryByText(WARNING)).not.toBeInTheDocument();
    expect((await ledger.service.chainStatus()).height).toBe(height);
    expect(within(section).queryByRole('heading', { name: SARAHS_RECORD })).not.toBeInTheDocument();
  });

  it('imports the records into the signed-in patient’s chart once the warning is confirmed', async () => {
    const { ledger, section, dialog, user } = await michaelWithSarahsExport();
    const height = (await ledger.service.chainStatus()).height;
    await user.click(await within(dialog).findByRole('button', { name: 'Import anyway' }));
    expect(await within(dialog).findByText('Imported 1 record.')).toBeInTheDocument();
    expect(within(dialog).queryByText(WARNING)).not.toBeInTheDocument();
    expect((await ledger.service.chainStatus()).height).toBe(height + 1);
    expect(await within(section).findByRole('heading', { name: SARAHS_RECORD, level: 3 })).toBeInTheDocument();
  });
});

const PDF = btoa('%PDF-1.4 echo report');

// Another clinic's Bundle for Sarah: a dated report, a description without its document, her health overview.
const CLINIC_BUNDLE = {
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    {
      resource: {
        resourceType: 'Patient',
        name: [{ text: 'Sarah Johnson' }],
        birthDate: '1988-04-12',
        contact: [
          {
            relationship: [
              { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C' }] },
              { text: 'spouse' },
            ],
            name: { text: 'Mark Johnson' },
            telecom: [{ system: 'phone', value: '+1 555 0142' }],
          },
        ],
      },
    },
    { resource: { resourceType: 'AllergyIntolerance', patient: { reference: 'Patient/x' }, code: { text: 'Penicillin' } } },
    { resource: { resourceType: 'AllergyIntolerance', patient: { reference: 'Patient/x' }, code: { text: 'Peanuts' } } },
    {
      resource: {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '882-1' }] },
        valueCodeableConcept: { text: 'O+' },
      },
    },
    {
      resource: {
        resourceType: 'DocumentReference',
        status: 'current',
        description: 'Echocardiogram',
        date: '2024-03-05T19:50:00.000Z',
        content: [{ attachment: { contentType: 'application/pdf', title: 'echo.pdf', data: PDF } }],
      },
    },
    {
      resource: {
        resourceType: 'DocumentReference',
        status: 'current',
        description: 'Referral letter',
        content: [{ attachment: { contentType: 'application/pdf', title: 'referral.pdf' } }],
      },
    },
    { resource: { resourceType: 'Practitioner', name: [{ text: 'Dr. A' }] } },
    { resource: { resourceType: 'Practitioner', name: [{ text: 'Dr. B' }] } },
  ],
};

describe('Import (FHIR) of another clinic’s Bundle', () => {
  it('shows the record with the document’s own date and when it was imported, and says in plain words what was not added and why', async () => {
    const ledger = openLedger();
    const view = renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const section = await screen.findByRole('region', { name: 'Your Records' });
    await view.user.click(await screen.findByRole('button', { name: 'Import (FHIR)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import (FHIR)' });
    const file = new File([JSON.stringify(CLINIC_BUNDLE)], 'clinic.json', { type: 'application/json' });
    await view.user.upload(within(dialog).getByLabelText('Bundle file'), file);
    await view.user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByText('Imported 1 record.')).toBeInTheDocument();
    expect(within(dialog).getByText(/^Your health overview in this file/)).toHaveTextContent(
      'Your health overview in this file (blood type O+; allergies Penicillin, Peanuts; emergency contact Mark Johnson (spouse) +1 555 0142) is the same as on your profile.',
    );
    const notAdded = within(dialog).getByRole('list', { name: 'Not added as records' });
    expect(
      within(notAdded)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Your details: your profile here is kept by your clinic',
      '“Referral letter”: the file describes it but does not hold the document itself',
      'Doctors’ details (2): MedLedger keeps its own list of doctors',
    ]);
    await view.user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]);
    const heading = await within(section).findByRole('heading', { name: 'Echocardiogram', level: 3 });
    const item = heading.closest('li') as HTMLElement;
    const imported = (await ledger.service.listRecords('patient-1')).records.find((record) => record.title === 'Echocardiogram');
    expect(item).toHaveTextContent(`Dated ${formatDateTime('2024-03-05T19:50:00.000Z')}`);
    expect(item).toHaveTextContent(`Imported ${formatDateTime(imported?.timestamp ?? '')}`);
  });
});
