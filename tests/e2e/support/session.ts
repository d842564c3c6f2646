import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../../workers/core/constants';
import { DEMO_ACCOUNTS } from '../../../workers/core/directory';
import type { Role } from '../../../workers/core/types';
import { settled } from './read';

export const ROLE_LABEL = { patient: 'Patient', doctor: 'Doctor' } as const;

// The role toggle's radio inputs are visually hidden behind their labels (Bootstrap btn-check): click the label.
export async function chooseRole(page: Page, role: Role): Promise<void> {
  const radio = page.getByRole('radio', { name: ROLE_LABEL[role] });
  await page.locator(`label[for="${await radio.getAttribute('id')}"]`).click();
  await settled(() => radio.isChecked(), `the ${role} toggle did not become checked`).toBe(true);
}

// Signs in through the login form like a user, with the role's demo account unless an email is given.
export async function login(page: Page, role: Role, email: string = DEMO_ACCOUNTS[role]): Promise<void> {
  await page.goto('/');
  await chooseRole(page, role);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`**/${role}/dashboard`);
}

// Logs out through the top bar and waits for the login screen; a doctor asked about an open emergency session
// keeps it running, as before the question was asked.
export async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  const signIn = page.getByRole('button', { name: 'Sign In' });
  const keep = page.getByRole('button', { name: 'Log out and keep it' });
  await signIn.or(keep).first().waitFor();
  if (await keep.isVisible()) await keep.click();
  await signIn.waitFor();
}

// The path of the page's URL, e.g. '/patient/dashboard'.
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}
