// A sign-in that is more than an id, and blocks that say who wrote them, in the built app: the session is the
// user's unlocked key kept in IndexedDB, an edited currentUser finds no key, and the explorer names each
// block's author and whether its signature holds, also in the tamper demo after a re-mine.
import type { Page } from 'playwright-core';
import { accessScope } from '../../workers/core/access';
import { mineBlock } from '../../workers/core/chain';
import { DEMO_PASSWORD } from '../../workers/core/constants';
import { DOCTORS, PATIENTS } from '../../workers/core/directory';
import { emergencyRecord, grantExpiresAt, iso } from '../../workers/core/ledger-records';
import { fromBase64, signBlock, toBase64, unlockUserKey, type WrappedUserKey } from '../../workers/core/signatures';
import type { Block, EmergencyGrant } from '../../workers/core/types';
import { section, settled, text } from './support/read';
import { describe, expect, test } from './support/fixtures';
import { openSandboxBlock, sandboxPanel } from './support/explorer';
import { goTo, pdfFile, uploadRecord } from './support/records';
import { login, pathOf } from './support/session';
import { storeBlocks } from './support/stored-ledger';

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
    const session = (await read('session')) as { userId: string; signingKey: CryptoKey; encryptionKey?: CryptoKey } | undefined;
    db.close();
    return {
      users: Object.values(keys?.users ?? {}).map((key) => ({
        iterations: key.iterations,
        kdf: key.kdf,
        fields: Object.keys(key).sort(),
        encryptionFields: Object.keys((key.encryption as Record<string, unknown> | undefined) ?? {}).sort(),
      })),
      session: session
        ? {
            userId: session.userId,
            extractable: session.signingKey.extractable,
            type: session.signingKey.type,
            // the key document keys are wrapped to (docs/decisions/document-keys-travel-wrapped.md)
            encryptionKey: session.encryptionKey && {
              extractable: session.encryptionKey.extractable,
              type: session.encryptionKey.type,
              algorithm: session.encryptionKey.algorithm.name,
            },
          }
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
      expect(user.fields).toEqual(['encryption', 'hash', 'iterations', 'iv', 'kdf', 'publicKey', 'salt', 'wrappedKey']);
      expect(user.encryptionFields).toEqual(['iv', 'publicKey', 'wrappedKey']);
    }
    await settled(async () => (await storedKeyEntries(page)).session).toEqual({
      userId: 'patient-1',
      extractable: false,
      type: 'private',
      encryptionKey: { extractable: false, type: 'private', algorithm: 'ECDH' },
    });
  });

  test("editing currentUser to the doctor's id and reloading does not sign in as the doctor", async ({ page }) => {
    await login(page, 'patient');
    await page.evaluate((doctor) => localStorage.setItem('currentUser', JSON.stringify(doctor)), DOCTORS[0]);
    await page.reload();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(pathOf(page)).toBe('/');
    await settled(() => page.evaluate(() => localStorage.getItem('currentUser'))).toBeNull();
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
    await settled(async () => (await storedKeyEntries(page)).session).toBeNull();
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
    await settled(() => author(1).textContent()).toContain('Sarah Johnson');
    await settled(() => author(0).textContent()).toContain('Ledger (system)');

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
    await settled(() => panel.locator('[data-chain-valid="false"]').textContent()).toContain('Chain invalid at block #1:');
    await settled(() => author(1, panel).textContent()).toContain('signature fails');
  });
});

// The stored genesis (first in the first page of blocks) and wrapped keys, read as any script of the origin can.
async function storedGenesisAndKeys(page: Page): Promise<{ genesis: Block; users: Record<string, WrappedUserKey> }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('medledger');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = <T>(store: string, key: IDBValidKey) =>
      new Promise<T>((resolve, reject) => {
        const request = db.transaction(store, 'readonly').objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result as T);
        request.onerror = () => reject(request.error);
      });
    const [genesis] = await read<Block[]>('pages', 0);
    const keys = await read<{ users: Record<string, WrappedUserKey> }>('meta', 'keys');
    db.close();
    return { genesis, users: keys.users };
  });
}

// The stored genesis, then Dr. Wilson's emergency grant on Sarah and his reads under it, each block mined and
// signed with his key (unlocked from the stored keys with the demo password), up to `height` blocks.
async function wilsonReadsSarah(page: Page, height: number): Promise<Block[]> {
  const { genesis, users } = await storedGenesisAndKeys(page);
  const doctor = DOCTORS[1]; // Dr. Wilson, not Sarah's doctor: an emergency grant and its reads
  const key = await unlockUserKey(users[doctor.id], DEMO_PASSWORD);
  if (!key) throw new Error("the demo password did not unlock Dr. Wilson's key");
  const at = Math.max(Date.now(), Date.parse(genesis.timestamp));
  const grant: EmergencyGrant = {
    id: crypto.randomUUID(),
    patientId: PATIENTS[0].id,
    doctorId: doctor.id,
    accessLevel: 'basic',
    reason: 'Unconscious on arrival',
    durationMinutes: 240,
    expiresAt: grantExpiresAt(at, 240),
    createdAt: iso(at),
    isActive: true,
  };
  const blocks: Block[] = [genesis];
  for (let index = 1; index < height; index++) {
    const record =
      index === 1
        ? emergencyRecord(crypto.randomUUID(), grant, 'granted', iso(at))
        : emergencyRecord(crypto.randomUUID(), grant, 'read', iso(at + index), { what: accessScope('basic').legacyRead });
    blocks.push(mineBlock(blocks[index - 1], record, record.timestamp));
  }
  return [genesis, ...(await Promise.all(blocks.slice(1).map((block) => signBlock(block, key))))];
}

describe('a long signed chain', () => {
  test(
    'has its signatures checked by checker workers, and one that fails there is named with its block and turns the app read-only',
    { timeout: 120_000 },
    async ({ page }) => {
      const HEIGHT = 2600; // past the first slice checked in the ledger worker: the rest goes to the checkers
      const BAD = 2000;
      await login(page, 'patient');
      const signed = await wilsonReadsSarah(page, HEIGHT);
      const doctor = DOCTORS[1];
      const bytes = fromBase64(signed[BAD].signature);
      bytes[0] ^= 1;
      signed[BAD] = { ...signed[BAD], signature: toBase64(bytes) };
      await storeBlocks(page, signed.slice(1));

      await page.reload();
      const banner = page.getByRole('status').filter({ hasText: 'The stored chain failed verification' });
      await banner.waitFor({ timeout: 60_000 });
      await settled(() => text(banner)).toContain(
        `Block #${BAD} failed a check: signature does not hold for the enrolled key of ${doctor.id}.`,
      );
      expect(
        page
          .workers()
          .map((worker) => worker.url())
          .some((url) => url.includes('signature-checker')),
      ).toBe(true);
      const status = section(page, 'Blockchain Status');
      await settled(() => text(status)).toContain(`#${BAD}: signature does not hold`);
    },
  );
  test(
    "shows a returning patient's dashboard as this device last answered it while its blocks are read, then the verified one",
    { timeout: 180_000 },
    async ({ page }) => {
      const HEIGHT = 5200; // over 5,000 blocks: a long ledger, whose dashboard answer is kept for the next load
      await login(page, 'patient');
      await storeBlocks(page, (await wilsonReadsSarah(page, HEIGHT)).slice(1));
      const dashboard = page.getByRole('main');
      const chainStatus = page.locator('main dt', { hasText: 'Chain Status' }).locator('xpath=following-sibling::dd[1]');
      await page.reload(); // nothing kept yet: the dashboard waits for the load, and its answer is kept
      await expect.poll(() => text(dashboard), { timeout: 60_000 }).toContain(`Blocks in the records chain: ${HEIGHT}`);
      await expect.poll(() => text(chainStatus), { timeout: 60_000 }).toBe('Valid');
      const verified = await text(dashboard);

      // what the screens show while the kept first screen is up, recorded from the page's first mutation on
      await page.addInitScript(() => {
        const seen: { progress: string; main: string }[] = [];
        (window as unknown as { keptSeen: typeof seen }).keptSeen = seen;
        new MutationObserver(() => {
          const progress = document.querySelector('[data-last-check]')?.textContent;
          if (progress) seen.push({ progress, main: document.querySelector('main')?.textContent ?? '' });
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.reload();
      await expect.poll(() => text(chainStatus), { timeout: 60_000 }).toBe('Valid');
      expect(await page.locator('[data-last-check]').count()).toBe(0);
      const seen = await page.evaluate(() => (window as unknown as { keptSeen: { progress: string; main: string }[] }).keptSeen);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0].progress).toBe(
        'Reading the 5,200 stored blocks to check them again: shown meanwhile as this device last checked them',
      );
      const kept = seen.find((shown) => shown.main.includes('Total Records'));
      expect(kept?.main).toContain(`Blocks in the records chain: ${HEIGHT}`);
      expect(kept?.main).toContain('Checking');
      // the verified dashboard says what the kept one said: nothing changed since
      expect(await text(dashboard)).toBe(verified);
    },
  );
});
