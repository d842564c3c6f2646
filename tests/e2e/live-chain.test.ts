// The explorer's live sandbox chain, its peers and the records chain's anchor, in the built app in Chromium.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { mineBlock } from '../../workers/core/chain';
import type { Block } from '../../workers/core/types';
import { editTitleUntilInvalid, openSandboxBlock, resetDemoSandbox, sandboxPanel } from './support/explorer';
import { describe, expect, test } from './support/fixtures';
import { settled } from './support/read';
import { pdfFile, uploadRecord } from './support/records';
import { checkScreen } from './support/screens';
import { login } from './support/session';
import { readStoredLedger, storeBlocks } from './support/stored-ledger';

async function openExplorer(page: Page, tab?: 'Anchor' | 'Tamper demo' | 'Peers'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Blockchain Explorer' }).click();
  await page.waitForURL('**/blockchain');
  if (tab) await page.getByRole('tab', { name: tab }).click();
}

interface Painted {
  committedMs: number; // keydown to the DOM change
  ms: number; // keydown to just after the frame that painted it
  frame: number; // which frame after the keydown painted it: 1 is the next one
}

interface KeystrokeSample {
  key: string;
  invalid: Painted; // the edited row and every later rendered row show invalid
  hash: Painted; // the edited row shows the worker's answer: the typed title, with the new hash
  editedValid: string | undefined; // data-valid of the edited row once the answer is shown
  editedHash: string;
  laterValid: (string | undefined)[]; // data-valid of every rendered row after the edited block, then
}

// Arms a probe for the next keystroke. It notes the keydown, then watches the table (MutationObserver) for two
// states: every row from the edited block on shown invalid, and the edited row showing the worker's answer
// (the typed title). For each, the frame that paints it: the next requestAnimationFrame after the change, and
// a message posted there, which runs once that frame is painted. Frames are counted from the keydown.
async function armKeystrokeProbe(panel: Locator, index: number, expectedTitle: string): Promise<void> {
  await panel.evaluate(
    (root, { index, expectedTitle }) => {
      const probe: Record<string, unknown> = { done: false };
      (window as unknown as { __keystroke: Record<string, unknown> }).__keystroke = probe;
      let frames = 0;
      let keydownFrame = 0;
      let keydownAt = 0;
      let counting = true;
      const tick = () => {
        frames += 1;
        if (counting) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      const rows = () => [...root.querySelectorAll<HTMLElement>('tr[data-block-index]')];
      const rowOf = (at: number) => root.querySelector<HTMLElement>(`tr[data-block-index="${at}"]`);
      const watchers: { name: string; reached: () => boolean; seen: boolean }[] = [
        {
          name: 'invalid',
          reached: () => rows().every((row) => Number(row.dataset.blockIndex) < index || row.dataset.valid === 'false'),
          seen: false,
        },
        {
          name: 'hash',
          reached: () => rowOf(index)?.querySelector('td.explorer-title')?.getAttribute('title') === expectedTitle,
          seen: false,
        },
      ];
      let painted = 0;
      const paintedAfter = (name: string) => {
        const committedMs = performance.now() - keydownAt;
        requestAnimationFrame(() => {
          const frame = frames - keydownFrame; // the frame counter's callback of this frame ran first
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            channel.port1.close();
            probe[name] = { committedMs, ms: performance.now() - keydownAt, frame };
            painted += 1;
            if (painted === watchers.length) {
              counting = false;
              probe.done = true;
            }
          };
          channel.port2.postMessage(null);
        });
      };
      const check = () => {
        for (const watcher of watchers) {
          if (watcher.seen || !watcher.reached()) continue;
          watcher.seen = true;
          if (watcher.name === 'hash') {
            Object.assign(probe, {
              editedValid: rowOf(index)?.dataset.valid,
              editedHash: rowOf(index)?.querySelector('code')?.getAttribute('title') ?? '',
              laterValid: rows()
                .filter((row) => Number(row.dataset.blockIndex) > index)
                .map((row) => row.dataset.valid),
            });
          }
          paintedAfter(watcher.name);
        }
        if (watchers.every((watcher) => watcher.seen)) observer.disconnect();
      };
      const observer = new MutationObserver(check);
      document.addEventListener(
        'keydown',
        () => {
          keydownAt = performance.now();
          keydownFrame = frames;
          observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
          queueMicrotask(check); // a state already reached (later keys: the rows are invalid already) counts at once
        },
        { capture: true, once: true },
      );
    },
    { index, expectedTitle },
  );
}

async function typeMeasured(page: Page, panel: Locator, index: number, start: string, keys: string): Promise<KeystrokeSample[]> {
  const samples: KeystrokeSample[] = [];
  let title = start;
  for (const key of keys) {
    title += key;
    await armKeystrokeProbe(panel, index, title);
    await page.keyboard.press(key);
    await page.waitForFunction(() => (window as unknown as { __keystroke: { done: boolean } }).__keystroke.done);
    const probe = await page.evaluate(() => (window as unknown as { __keystroke: Omit<KeystrokeSample, 'key'> }).__keystroke);
    samples.push({ key, ...probe });
  }
  return samples;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('the live sandbox chain', () => {
  test(
    'typing in a block turns it and every later block invalid within one frame of the keystroke; re-mine from here repairs them',
    { timeout: 60_000 },
    async ({ page }) => {
      await login(page, 'patient');
      await openExplorer(page, 'Tamper demo');
      const panel = sandboxPanel(page);
      await resetDemoSandbox(panel, 20);
      const editor = await openSandboxBlock(panel, 7);
      const title = editor.getByLabel('Title');
      await title.click();
      await title.press('End');

      const samples = await typeMeasured(page, panel, 7, 'Demo record 7', '-edited');
      const [first] = samples;
      // the keystroke turns the block and every later one invalid in the next frame (the first key: from valid)
      expect(first.invalid.frame, `first key: invalid painted after ${first.invalid.ms.toFixed(1)} ms`).toBe(1);
      // with the worker's answer: every later block is invalid; the edited one too, unless its new hash happens to
      // meet the difficulty (1 in 256)
      expect(first.laterValid.length).toBeGreaterThanOrEqual(8); // the later rows in the rendered window
      expect(first.laterValid.every((valid) => valid === 'false')).toBe(true);
      expect(first.editedValid === 'false' || first.editedHash.startsWith('00')).toBe(true);
      const hash = samples.map((sample) => sample.hash.ms);
      console.log(
        `[live chain] ${samples.length} keys: invalid painted ${samples.map((sample) => sample.invalid.frame).join(' ')} frames after the key; ` +
          `new hash in the DOM after ${samples.map((sample) => sample.hash.committedMs.toFixed(1)).join(' ')} ms, painted median ${median(hash).toFixed(1)} ms, worst ${Math.max(...hash).toFixed(1)} ms (frames ${samples.map((sample) => sample.hash.frame).join(' ')})`,
      );
      // Chromium holds a worker's reply back until after the frame that follows a key (DeferRendererTasksAfterInput):
      // the new hash comes in frame 2 or 3 here; more would mean keystrokes queue up work
      for (const sample of samples)
        expect(sample.hash.frame, `key "${sample.key}": ${sample.hash.ms.toFixed(1)} ms`).toBeLessThanOrEqual(4);

      const typed = await editTitleUntilInvalid(panel, 7, 'Demo record 7-edited');
      await panel.getByText('Chain invalid at block #7:').waitFor();
      await settled(() => panel.locator('tr[data-block-index="8"] td.explorer-check').textContent()).toBe(
        'Invalid: previousHash does not match block 7',
      );
      await settled(() => panel.locator('tr[data-block-index="12"] td.explorer-check').textContent()).toBe(
        'Invalid: follows invalid block #7',
      );
      await checkScreen(page, 'explorer-live-chain');

      await editor.getByRole('button', { name: 'Re-mine from here' }).click();
      await panel.getByText(/^Re-mined 13 blocks \(#7 to #19\) in (\d+ ms|under 1 ms|[\d.]+ s) at .*hashes\/s\.$/).waitFor();
      await panel.getByText('Chain valid.').waitFor();
      await panel.locator('tr[data-block-index="7"][data-valid="true"]').waitFor();
      const states = () =>
        panel.locator('tr[data-block-index]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.valid));
      await settled(async () => (await states()).length).toBeGreaterThanOrEqual(15); // the rendered window around block 7
      await settled(async () => (await states()).every((valid) => valid === 'true')).toBe(true);
      await settled(() => panel.locator('tr[data-block-index="7"]').textContent()).toContain(typed);
      await settled(() => editor.getAttribute('data-valid')).toBe('true');
    },
  );
});

describe('the peers view', () => {
  test(
    'names the copy that was tampered with and re-mined, and the block it differs from',
    { timeout: 60_000 },
    async ({ page }) => {
      await login(page, 'doctor');
      await openExplorer(page, 'Peers');
      const panel = sandboxPanel(page, 'peers');
      await resetDemoSandbox(panel, 20);
      await panel.getByText('All three peers agree: 20 blocks with the same tip hash.').waitFor();
      await panel.getByLabel('Copy to work on').selectOption({ label: 'Peer C' });
      await openSandboxBlock(panel, 4);
      await editTitleUntilInvalid(panel, 4, 'Rewritten on peer C');
      await panel.getByText('Peer C disagrees with the other two from block #4.', { exact: false }).waitFor();
      await panel.locator('[data-editor-index="4"]').getByRole('button', { name: 'Re-mine from here' }).click();
      await panel.getByText(/^Re-mined 16 blocks/).waitFor();
      const verdict = panel.locator('[data-peers-agree="false"]');
      await verdict.getByText('Its copy verifies by itself').waitFor();
      await settled(() => verdict.textContent()).toBe(
        'Peer C disagrees with the other two from block #4. Its copy verifies by itself, but the other two hold a different block there.',
      );
      await settled(() => panel.locator('tr[data-peer="C"]').textContent()).toContain('Differs from #4');
      await settled(() => panel.locator('tr[data-peer="A"]').textContent()).toContain('Agrees');
      const tips = () =>
        panel.locator('tr[data-peer] code').evaluateAll((codes) => codes.map((code) => code.getAttribute('title')));
      // A and B share a tip, C holds its own
      await settled(async () => {
        const [a, b, c] = await tips();
        return { bIsA: b === a, cIsA: c === a };
      }).toEqual({ bIsA: true, cIsA: false });
      await checkScreen(page, 'explorer-peers');
    },
  );
});

// Rewrites the stored records chain from block `from` on (its sealed text changed, every later block re-mined with its
// own record and time), as a script of the origin could: hashes, links and rules verify, signatures cannot. (A title
// written in clear would break the sealing rule before any signature is checked.)
async function rewriteStoredChain(page: Page, from: number): Promise<void> {
  const { blocks } = await readStoredLedger(page);
  const rewritten: Block[] = blocks.slice(0, from);
  for (let i = from; i < blocks.length; i++) {
    const record = i === from ? withSealedTextChanged(blocks[i].data) : blocks[i].data;
    rewritten.push(mineBlock(rewritten[i - 1], record, blocks[i].timestamp));
  }
  await storeBlocks(page, rewritten.slice(from));
}

// The first character of a sealed upload's ciphertext swapped for another base64 character.
function withSealedTextChanged(data: Block['data']): Block['data'] {
  if (!('sealed' in data) || !data.sealed) throw new Error('block 1 is not a sealed upload');
  const sealed = data.sealed;
  return { ...data, sealed: { ...sealed, data: `${sealed.data.startsWith('A') ? 'B' : 'A'}${sealed.data.slice(1)}` } };
}

describe('the anchor', () => {
  test(
    'an anchor saved before a tamper-and-re-mine of the records chain names the first block that differs',
    { timeout: 60_000 },
    async ({ page }) => {
      await login(page, 'patient');
      await uploadRecord(page, 'Lipid panel', [pdfFile('lipid-panel.pdf')]);
      await uploadRecord(page, 'ECG report', [pdfFile('ecg-report.pdf')]);
      await openExplorer(page, 'Anchor');
      const panel = page.locator('#explorer-tabs-tabpane-anchor');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: 'Save anchor' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^medledger-anchor-block-2-\d{4}-\d{2}-\d{2}\.json$/);
      const file = await download.path();
      const anchor = JSON.parse(readFileSync(file, 'utf8')) as { height: number; tipHash: string };
      expect(anchor.height).toBe(3);
      await settled(() => panel.locator('[data-field="tipHash"]').textContent()).toBe(anchor.tipHash);

      await panel.getByLabel('Anchor file').setInputFiles(file);
      await panel.getByRole('button', { name: 'Check anchor' }).click();
      await panel.locator('[data-anchor-result="unchanged"]').getByText('Unchanged up to block #2.').waitFor();
      await checkScreen(page, 'explorer-anchor');

      await rewriteStoredChain(page, 1);
      await page.reload();
      await page.getByRole('tab', { name: 'Records chain' }).click();
      // hashes and links of a consistent rewrite verify; its re-mined blocks carry no signature of their author
      const verdict = page.locator('#explorer-tabs-tabpane-chain [data-chain-valid="false"]');
      await verdict.waitFor();
      await settled(() => verdict.textContent()).toContain('Chain invalid at block #1: signature: the block is not signed.');
      await page.getByRole('tab', { name: 'Anchor' }).click();
      await panel.getByLabel('Anchor file').setInputFiles(file);
      await panel.getByRole('button', { name: 'Check anchor' }).click();
      const changed = panel.locator('[data-anchor-result="changed"]');
      await changed.waitFor();
      await settled(() => changed.getAttribute('data-first-different')).toBe('1');
      await settled(() => changed.textContent()).toContain('Changed from block #1.');
    },
  );

  test('refuses a file that is not an anchor with a message that says why', async ({ page }) => {
    await login(page, 'patient');
    await openExplorer(page, 'Anchor');
    const panel = page.locator('#explorer-tabs-tabpane-anchor');
    await panel
      .getByLabel('Anchor file')
      .setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"other"}') });
    await panel.getByRole('button', { name: 'Check anchor' }).click();
    await settled(() => panel.locator('[data-anchor-result="refused"]').textContent()).toBe(
      'This is not a MedLedger anchor: "format" must be "medledger-anchor".',
    );
  });
});
