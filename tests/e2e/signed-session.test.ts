// A sign-in that is more than an id, and blocks that say who wrote them, in the built app: the session is the
// user's unlocked key kept in IndexedDB, an edited currentUser finds no key, and the explorer names each
// block's author and whether its signature holds, also in the tamper demo after a re-mine.
import type { Page } from 'playwright-core';
import { DOCTORS } from '../../workers/core/directory';
import { describe, expect, test } from './support/fixtures';
import { openSandboxBlock, sandboxPanel } from './support/explorer';
import { goTo, pdfFile, uploadRecord } from './support/records';
import { login, pathOf } from './support/session';

// The 'keys' and 'session' entries the worker stored, as any script of the origin can read them.
async function storedKeyEntries(page: Page) {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('medledger');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = (key: string) =>
      new Promise<unknown>((resolve, reject) => {
        const request = db.transaction('meta', 'readonly').objectStore('meta').get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const keys = (await read('keys')) as { users: Record<string, Record<string, unknown>> } | undefined;
    const session = (await read('session')) as { userId: string; signingKey: CryptoKey } | undefined;
    db.close();
    return {
      users: Object.values(keys?.users ?? {}).map((key) => ({
        iterations: key.iterations,
        kdf: key.kdf,
        fields: Object.keys(key).sort(),
      })),
      session: session
        ? { userId: session.userId, extractable: session.signingKey.extractable, type: session.signingKey.type }
        : null,
    };
  });
}

describe('a sign-in that unlocks a key', () => {
  test('stores every key wrapped with at least 600,000 PBKDF2 iterations, and the session key non-extractable', async ({
    page,
  }) => {
    await login(page, 'patient');
    const stored = await storedKeyEntries(page);
    expect(stored.users).toHaveLength(4);
    for (const user of stored.users) {
      expect(user.kdf).toBe('PBKDF2');
      expect(user.iterations).toBeGreaterThanOrEqual(600_000);
      expect(user.fields).toEqual(['hash', 'iterations', 'iv', 'kdf', 'publicKey', 'salt', 'wrappedKey']);
    }
    expect(stored.session).toEqual({ userId: 'patient-1', extractable: false, type: 'private' });
  });

  test("editing currentUser to the doctor's id and reloading does not sign in as the doctor", async ({ page }) => {
    await login(page, 'patient');
    await page.evaluate((doctor) => localStorage.setItem('currentUser', JSON.stringify(doctor)), DOCTORS[0]);
    await page.reload();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(pathOf(page)).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('currentUser'))).toBeNull();
    await page.goto('/doctor/dashboard');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(pathOf(page)).toBe('/');
  });

  test('a reload keeps a real session, and after Logout a reload is signed out', async ({ page }) => {
    await login(page, 'doctor');
    await page.reload();
    await page.getByRole('heading', { name: `Welcome, ${DOCTORS[0].name}` }).waitFor();
    expect(pathOf(page)).toBe('/doctor/dashboard');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await storedKeyEntries(page)).session).toBeNull();
    await page.goto('/doctor/dashboard');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(pathOf(page)).toBe('/');
  });
});

describe('the explorer names who signed each block', () => {
  test('shows each block author with a signature that holds, and a re-mined block in the tamper demo fails its signature', async ({
    page,
  }) => {
    await login(page, 'patient');
    await uploadRecord(page, 'Lipid panel', [pdfFile('lipid-panel.pdf')]);
    await goTo(page, 'Blockchain Explorer', 'Blockchain Explorer');
    const chain = page.locator('#explorer-tabs-tabpane-chain');
    await chain.getByText('Every block is signed by its author').waitFor();
    const author = (index: number, scope = chain) => scope.locator(`tr[data-block-index="${index}"] td.explorer-author`);
    await author(1).getByText('signature holds').waitFor();
    expect(await author(1).textContent()).toContain('Sarah Johnson');
    expect(await author(0).textContent()).toContain('Ledger (system)');

    await page.getByRole('tab', { name: 'Tamper demo' }).click();
    const panel = sandboxPanel(page);
    await panel.locator('tr[data-block-index="1"]').waitFor(); // the sandbox starts as a copy of the records chain
    const editor = await openSandboxBlock(panel, 1);
    await editor.getByLabel('Title').fill('Forged lipid panel');
    await panel.locator('tr[data-block-index="1"] td.explorer-title[title="Forged lipid panel"]').waitFor();
    await editor.getByRole('button', { name: 'Re-mine', exact: true }).click();
    // its hash holds again, its signature (made over the old hash) does not
    await panel
      .locator('[data-chain-valid="false"]')
      .getByText('signature no longer matches: the block changed, and only its author can sign it again', { exact: false })
      .waitFor();
    expect(await panel.locator('[data-chain-valid="false"]').textContent()).toContain('Chain invalid at block #1:');
    expect(await author(1, panel).textContent()).toContain('signature fails');
  });
});
