import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
