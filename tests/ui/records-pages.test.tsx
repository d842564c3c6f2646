// Medical Records and a doctor's patient card a page at a time: the pages' navigation, the total, a search or a type
// that starts again from page 1, the page of a linked record, and a deletion that keeps the page.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RECORDS_PAGE_SIZE } from '../../workers/core/constants';
import { recordLink } from '../../src/components/record-link';
import { openLedger, renderApp } from './render-app';
import { seedRecords } from './record-seeds';

const UPLOADS = RECORDS_PAGE_SIZE + 5; // with the genesis diagnosis: a full first page and 6 records on the second
const seeds = Array.from({ length: UPLOADS }, (_, n) => ({
  title: `Record ${n}`,
  type: n % 2 === 0 ? ('prescription' as const) : ('test_report' as const),
}));

const recordsSection = () => screen.findByRole('region', { name: 'Your Records' });
const titles = (scope: HTMLElement) =>
  within(scope)
    .queryAllByRole('listitem')
    .filter((item) => item.classList.contains('record-detail'))
    .map((item) => within(item).getByRole('heading', { level: 3 }).textContent);
const newestFirst = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => `Record ${from - i}`);
const pages = (scope: HTMLElement, name = 'Records pages') => within(scope).getByRole('navigation', { name });
const current = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('button')
    .find((button) => button.getAttribute('aria-current') === 'page')?.textContent;

async function seededLedger() {
  const ledger = openLedger();
  const uploads = await seedRecords(ledger.service, 'patient-1', seeds);
  return { ledger, uploads };
}

describe('Medical Records a page at a time', () => {
  it('shows the newest page with the total, and turns pages with Previous, Next and the page numbers', async () => {
    const { ledger } = await seededLedger();
    const { user } = renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const section = await recordsSection();
    await waitFor(() => expect(titles(section)).toEqual(newestFirst(UPLOADS - 1, UPLOADS - RECORDS_PAGE_SIZE)));
    expect(within(section).getByText(`${UPLOADS + 1} records`)).toBeInTheDocument();
    const nav = pages(section);
    expect(current(nav)).toBe('1');
    const previous = within(nav).getByRole('button', { name: 'Previous' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    expect(within(nav).getByRole('button', { name: 'Page 2' })).not.toHaveAttribute('aria-current');

    await user.click(within(nav).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(titles(section)).toEqual([...newestFirst(4, 0), 'Initial health assessment']));
    expect(current(nav)).toBe('2');
    expect(within(nav).getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(section).getByText(`${UPLOADS + 1} records`)).toBeInTheDocument();

    await user.click(previous);
    await waitFor(() => expect(current(nav)).toBe('1'));
    expect(titles(section)).toHaveLength(RECORDS_PAGE_SIZE);
  });

  it('is usable from the keyboard: Tab reaches the page buttons, Enter turns the page and the focus stays', async () => {
    const { ledger } = await seededLedger();
    const { user } = renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const section = await recordsSection();
    const nav = await waitFor(() => pages(section));
    const second = within(nav).getByRole('button', { name: 'Page 2' });
    second.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(current(nav)).toBe('2'));
    expect(second).toHaveFocus();
    await user.tab(); // to Next, which stays a button at the last page
    expect(within(nav).getByRole('button', { name: 'Next' })).toHaveFocus();
    await user.keyboard('{Enter}'); // nothing past the last page
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    expect(within(nav).getByRole('button', { name: 'Page 1' })).toHaveFocus();
    await user.keyboard(' ');
    await waitFor(() => expect(current(nav)).toBe('1'));
  });

  it('starts again from page 1 when the search or the type changes', async () => {
    const { ledger } = await seededLedger();
    const { user } = renderApp('/patient/records', { ledger, signedInAs: 'patient-1' });
    const section = await recordsSection();
    const nav = await waitFor(() => pages(section));
    await user.click(within(nav).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(current(nav)).toBe('2'));

    await user.type(within(section).getByRole('searchbox', { name: 'Search' }), '.pdf');
    await waitFor(() => expect(titles(section)).toEqual(newestFirst(UPLOADS - 1, UPLOADS - RECORDS_PAGE_SIZE)));
    expect(within(section).getByText(`${UPLOADS} records`)).toBeInTheDocument(); // the genesis diagnosis has no file
    expect(current(pages(section))).toBe('1');
    await user.click(within(pages(section)).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(titles(section)).toEqual(newestFirst(4, 0)));

    await user.selectOptions(within(section).getByRole('combobox', { name: 'Type' }), 'prescription');
    const prescriptions = newestFirst(UPLOADS - 1, 0).filter((_, i) => (UPLOADS - 1 - i) % 2 === 0);
    await waitFor(() => expect(titles(section)).toEqual(prescriptions));
    expect(within(section).getByText(`${prescriptions.length} records`)).toBeInTheDocument();
    expect(within(section).queryByRole('navigation', { name: 'Records pages' })).not.toBeInTheDocument(); // one page
  });

  it('opens on the page that lists a linked record, highlighted, and keeps that page when one of its files is deleted', async () => {
    const { ledger, uploads } = await seededLedger();
    const linked = uploads[2].record; // on the second page
    const { user } = renderApp(recordLink(linked.id), { ledger, signedInAs: 'patient-1' });
    const section = await recordsSection();
    await waitFor(() => expect(titles(section)).toEqual([...newestFirst(4, 0), 'Initial health assessment']));
    const item = document.getElementById(`record-${linked.id}`) as HTMLElement;
    expect(item).toHaveAttribute('aria-current', 'true');
    expect(current(pages(section))).toBe('2');

    const other = document.getElementById(`record-${uploads[0].record.id}`) as HTMLElement;
    await user.click(within(other).getByRole('button', { name: 'Delete record-0.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this file?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete file' }));
    await screen.findByText(/“record-0.pdf” was deleted/);
    await waitFor(() =>
      expect(
        within(document.getElementById(`record-${uploads[0].record.id}`) as HTMLElement).getByText('file deleted'),
      ).toBeInTheDocument(),
    );
    expect(current(pages(section))).toBe('2');
    expect(titles(section)).toEqual([...newestFirst(4, 0), 'Initial health assessment']);
  });
});

describe("a doctor's patient card a page at a time", () => {
  it('counts every record and pages them under its own navigation', async () => {
    const { ledger } = await seededLedger();
    const { user } = renderApp('/doctor/patients', { ledger, signedInAs: 'doctor-1' });
    const card = await screen.findByRole('region', { name: 'Sarah Johnson' });
    await waitFor(() => expect(titles(card)).toEqual(newestFirst(UPLOADS - 1, UPLOADS - RECORDS_PAGE_SIZE)));
    expect(within(card).getByRole('heading', { name: /^Records/ })).toHaveTextContent(`Records (${UPLOADS + 1})`);
    const nav = pages(card, "Sarah Johnson's records pages");
    await user.click(within(nav).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(titles(card)).toEqual([...newestFirst(4, 0), 'Initial health assessment']));
    expect(current(nav)).toBe('2');
  });
});
