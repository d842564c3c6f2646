// The explorer's live sandbox chain, its peers and the records chain's anchor, against the real service over a channel.
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../src/components/format';
import { createClock } from '../support/ledger-fixtures';
import { captureBlobs, seedRecords } from './record-seeds';
import { openLedger, renderApp } from './render-app';

let capture: ReturnType<typeof captureBlobs> | null = null;
afterEach(() => {
  capture?.restore();
  capture = null;
});

function row(index: number): HTMLElement {
  const found = document.querySelector<HTMLElement>(`.tab-pane.active tr[data-block-index="${index}"]`);
  if (!found) throw new Error(`no row for block ${index}`);
  return found;
}

const checkOf = (index: number) => row(index).querySelector('td.explorer-check')?.textContent;

async function demoChainOf20(user: UserEvent, tab: 'Tamper demo' | 'Peers') {
  await user.click(await screen.findByRole('tab', { name: tab }));
  await user.selectOptions(await screen.findByLabelText('Sandbox chain'), 'Demo chain, 20 blocks'); // choosing builds it
  await screen.findByText(/The sandbox is a demo chain of 20 blocks/);
}

function openExplorer() {
  const ledger = openLedger({ now: createClock().now }); // a fixed clock: the same hashes on every run
  return renderApp('/patient/blockchain', { ledger, signedInAs: 'patient-1' });
}

describe('the live sandbox chain', () => {
  it('recomputes the hash as the title is typed, marks the block and every later one invalid with the reason, and re-mines them', async () => {
    const { user } = openExplorer();
    await demoChainOf20(user, 'Tamper demo');
    await user.click(await screen.findByRole('button', { name: 'Open block 7' }));
    const editor = await screen.findByRole('heading', { name: 'Sandbox chain: block #7' });
    const card = editor.closest<HTMLElement>('.card')!;
    const hashBefore = card.querySelector('[data-field="hash"]')?.textContent;
    expect(card).toHaveAttribute('data-valid', 'true');

    await user.type(within(card).getByLabelText('Title'), ' changed');
    await waitFor(() => expect(row(7)).toHaveAttribute('data-valid', 'false'));
    await waitFor(() => expect(row(7)).toHaveTextContent('Demo record 7 changed'));
    expect(card.querySelector('[data-field="hash"]')?.textContent).not.toBe(hashBefore);
    expect(within(card).getByText('Invalid: hash does not meet difficulty 2.')).toBeInTheDocument();
    expect(checkOf(7)).toBe('Invalid: hash does not meet difficulty 2');
    expect(checkOf(8)).toBe('Invalid: previousHash does not match block 7');
    for (let index = 9; index < 20; index++) expect(checkOf(index)).toBe('Invalid: follows invalid block #7');
    for (let index = 0; index < 7; index++) expect(row(index)).toHaveAttribute('data-valid', 'true');
    expect(screen.getByText('Chain invalid at block #7:')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Re-mine from here' }));
    expect(await screen.findByText(/^Re-mined 13 blocks \(#7 to #19\)/)).toBeInTheDocument();
    // the rows fetched before the edit stay on screen until the re-mined chain's pages arrive
    await waitFor(() => expect(row(7)).toHaveTextContent('Demo record 7 changed'));
    await waitFor(() => expect(row(19)).toHaveAttribute('data-valid', 'true'));
    for (let index = 0; index < 20; index++) expect(row(index)).toHaveAttribute('data-valid', 'true');
    expect(document.querySelector('.tab-pane.active [data-chain-valid]')).toHaveAttribute('data-chain-valid', 'true');
    expect(row(7)).toHaveTextContent('Demo record 7 changed');
  });

  it("re-mines one block: it is valid again and the next block's link is the one named", async () => {
    const { user } = openExplorer();
    await demoChainOf20(user, 'Tamper demo');
    await user.type(screen.getByLabelText('Block number'), '12');
    await user.click(screen.getByRole('button', { name: 'Open block' }));
    const card = (await screen.findByRole('heading', { name: 'Sandbox chain: block #12' })).closest<HTMLElement>('.card')!;
    await user.type(within(card).getByLabelText('Description'), '!');
    await waitFor(() => expect(row(12)).toHaveAttribute('data-valid', 'false'));
    await user.click(within(card).getByRole('button', { name: 'Re-mine' }));
    expect(await screen.findByText(/^Block #12 was re-mined/)).toHaveTextContent('Verification now stops at block #13.');
    await waitFor(() => expect(row(12)).toHaveAttribute('data-valid', 'true'));
    expect(checkOf(13)).toBe('Invalid: previousHash does not match block 12');
  });
});

describe("another patient's blocks", () => {
  it('are listed as restricted records with their time and hash only, and open read-only in the sandbox', async () => {
    const ledger = openLedger({ now: createClock().now });
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Private scan' }]);
    const { user } = renderApp('/patient/blockchain', { ledger, signedInAs: 'patient-2' });
    await waitFor(() => expect(row(1)).toHaveTextContent('Restricted record'));
    const [block] = (await ledger.service.blocksPage(0, 1)).blocks;
    expect(row(1)).toHaveTextContent(formatDateTime(block.timestamp));
    expect(within(row(1)).getByLabelText(`hash of block 1 ${block.hash.slice(0, 8)}`)).toBeInTheDocument();
    expect(row(1)).not.toHaveTextContent(/Sarah|Ledger|Test report|Diagnosis|Private scan|signature/);
    expect(row(0)).toHaveTextContent('Restricted record');

    await user.click(await screen.findByRole('tab', { name: 'Tamper demo' }));
    await user.click(await screen.findByRole('button', { name: 'Open block 1' }));
    const card = (await screen.findByRole('heading', { name: 'Sandbox chain: block #1' })).closest<HTMLElement>('.card')!;
    expect(card).toHaveTextContent('Restricted record: it is not yours to read, so it cannot be edited here.');
    expect(within(card).queryByRole('textbox')).toBeNull();
    expect(card.querySelector('[data-field="hash"]')).toHaveTextContent(block.hash);
    expect(row(1)).toHaveTextContent('Restricted record');
    // its header alone re-mines it: nothing changed, so the first nonce found is its own and the chain stays valid
    await user.click(within(card).getByRole('button', { name: 'Re-mine' }));
    expect(await screen.findByText(/^Block #1 was re-mined/)).toHaveTextContent('The chain is valid.');
    expect(checkOf(1)).toBe('Valid');
    expect(card.querySelector('[data-field="hash"]')).toHaveTextContent(block.hash);
  });
});

describe('the peers view', () => {
  it('names the copy that was changed and re-mined, and the block it differs from', async () => {
    const { user } = openExplorer();
    await demoChainOf20(user, 'Peers');
    expect(await screen.findByText('All three peers agree: 20 blocks with the same tip hash.')).toBeInTheDocument();
    expect(screen.getByLabelText('Copy to work on')).toHaveValue('B');
    await user.click(await screen.findByRole('button', { name: 'Open block 5' }));
    const card = (await screen.findByRole('heading', { name: "Peer B's chain: block #5" })).closest<HTMLElement>('.card')!;
    await user.type(within(card).getByLabelText('Title'), ' (rewritten)');
    await user.click(within(card).getByRole('button', { name: 'Re-mine from here' }));
    await screen.findByText(/^Re-mined 15 blocks/);
    // the verdict as it settles after the re-mine: the one shown while it ran said the copy was invalid by itself
    await waitFor(() =>
      expect(screen.getByText(/^Peer B disagrees with the other two from block #5\./)).toHaveTextContent(
        'Its copy verifies by itself, but the other two hold a different block there.',
      ),
    );
    const peerB = document.querySelector<HTMLElement>('tr[data-peer="B"]')!;
    expect(peerB).toHaveTextContent('Differs from #5');
    expect(document.querySelector('tr[data-peer="A"]')).toHaveTextContent('Agrees');
  });
});

describe('the anchor', () => {
  it("saves the records chain's tip as a JSON file and finds the chain unchanged against it", async () => {
    capture = captureBlobs();
    const { user, ledger } = openExplorer();
    await user.click(await screen.findByRole('tab', { name: 'Anchor' }));
    await user.click(screen.getByRole('button', { name: 'Save anchor' }));
    await waitFor(() => expect(capture?.downloads).toHaveLength(1));
    const tip = (await ledger.service.blocksPage(0, 1)).blocks[0];
    expect(capture.downloads[0].name).toMatch(/^medledger-anchor-block-0-\d{4}-\d{2}-\d{2}\.json$/);
    const saved = JSON.parse(await capture.text(0)) as { height: number; tipHash: string };
    expect(saved).toMatchObject({ format: 'medledger-anchor', height: 1, tipHash: tip.hash });
    expect(document.querySelector('[data-field="tipHash"]')).toHaveTextContent(tip.hash);

    await user.click(screen.getByLabelText("Or paste the anchor's JSON"));
    await user.paste(await capture.text(0));
    await user.click(screen.getByRole('button', { name: 'Check anchor' }));
    expect(await screen.findByText('Unchanged up to block #0.')).toBeInTheDocument();
  });

  it('says what is wrong with an anchor it cannot read', async () => {
    const { user } = openExplorer();
    await user.click(await screen.findByRole('tab', { name: 'Anchor' }));
    await user.click(screen.getByLabelText("Or paste the anchor's JSON"));
    await user.paste('{"format": "medledger-anchor", "version": 1}');
    await user.click(screen.getByRole('button', { name: 'Check anchor' }));
    expect(await screen.findByText('The anchor\'s "height" must be a whole number of blocks, 1 or more.')).toBeInTheDocument();
  });
});

describe('what the tamper demo says', () => {
  it('on the copy of the records chain, says re-mining an edited signed block cannot forge its signature, and the chain stays invalid', async () => {
    const ledger = openLedger({ now: createClock().now });
    await seedRecords(ledger.service, 'patient-1', [{ title: 'Blood test' }]);
    const { user } = renderApp('/patient/blockchain', { ledger, signedInAs: 'patient-1' });
    await user.click(await screen.findByRole('tab', { name: 'Tamper demo' }));
    const intro = screen.getByText(/^This works on a sandbox copy/);
    expect(intro).toHaveTextContent('re-mining cannot forge a signature');
    expect(intro).not.toHaveTextContent(/to make the chain valid again\.$/);
    await user.click(await screen.findByRole('button', { name: 'Open block 1' }));
    const card = (await screen.findByRole('heading', { name: 'Sandbox chain: block #1' })).closest<HTMLElement>('.card')!;
    await user.type(within(card).getByLabelText('Title'), ' changed');
    await waitFor(() => expect(row(1)).toHaveAttribute('data-valid', 'false'));
    await user.click(within(card).getByRole('button', { name: 'Re-mine from here' }));
    const note = await screen.findByText(/^Re-mined 1 block/);
    expect(note).toHaveTextContent("re-mining cannot forge its author's signature, so the chain stays invalid at block #1");
    expect(screen.getByText('Chain invalid at block #1:')).toBeInTheDocument();
  });

  it('sums up a valid demo chain as unsigned demo blocks, not as signed by their authors', async () => {
    const { user } = openExplorer();
    await demoChainOf20(user, 'Tamper demo');
    const summary = document.querySelector<HTMLElement>('.tab-pane.active [data-chain-valid="true"]')!;
    expect(summary).toHaveTextContent('unsigned demo blocks');
    expect(summary).not.toHaveTextContent('Every block is signed by its author');
  });

  it('gives a re-mine under a second its time in milliseconds, never "0.00 s"', async () => {
    const { user } = openExplorer();
    await demoChainOf20(user, 'Tamper demo');
    await user.click(await screen.findByRole('button', { name: 'Open block 18' }));
    const card = (await screen.findByRole('heading', { name: 'Sandbox chain: block #18' })).closest<HTMLElement>('.card')!;
    await user.click(within(card).getByRole('button', { name: 'Re-mine from here' }));
    expect(await screen.findByText(/^Re-mined 2 blocks/)).toHaveTextContent(/ in (under 1|[1-9]\d*) ms at /);
  });
});

describe('choosing a sandbox chain', () => {
  it('builds the chosen chain at once, and offers to rebuild it by a name that says so', async () => {
    const { user } = openExplorer();
    await user.click(await screen.findByRole('tab', { name: 'Tamper demo' }));
    await user.selectOptions(await screen.findByLabelText('Sandbox chain'), 'Demo chain, 20 blocks');
    expect(await screen.findByText(/The sandbox is a demo chain of 20 blocks/)).toBeInTheDocument();
    await waitFor(() => expect(row(19)).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Reset sandbox' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Rebuild this chain' }));
    expect(await screen.findByText(/The sandbox is a demo chain of 20 blocks/)).toBeInTheDocument();
  });

  it('keeps the chain chosen in one sandbox tab when the other tab is opened', async () => {
    const { user } = openExplorer();
    await demoChainOf20(user, 'Tamper demo');
    await user.click(screen.getByRole('tab', { name: 'Peers' }));
    expect(await screen.findByText('All three peers agree: 20 blocks with the same tip hash.')).toBeInTheDocument();
    expect(screen.getByLabelText('Sandbox chain')).toHaveValue('20');
  });
});

describe('the explorer, small things', () => {
  it('says "1 block" when all three peers agree on a chain of one block', async () => {
    const { user } = openExplorer();
    await user.click(await screen.findByRole('tab', { name: 'Peers' }));
    expect(await screen.findByText('All three peers agree: 1 block with the same tip hash.')).toBeInTheDocument();
  });

  it('counts a chain of one block as "1 block" above the records chain and the sandbox chain', async () => {
    const { user } = openExplorer();
    expect(await screen.findByText(/^1 block, newest first\./)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Tamper demo' }));
    await waitFor(() => expect(document.querySelector('.tab-pane.active')).toHaveTextContent('1 block, newest first.'));
  });

  it('opens the tab named in the address, and names the tab chosen there', async () => {
    const ledger = openLedger({ now: createClock().now });
    const { user, location } = renderApp('/patient/blockchain?tab=anchor', { ledger, signedInAs: 'patient-1' });
    expect(await screen.findByRole('tab', { name: 'Anchor', selected: true })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Peers' }));
    await waitFor(() => expect(location().search).toBe('?tab=peers'));
  });

  it('lights up only rows that open a block, and a click anywhere on a sandbox row opens it', async () => {
    const { user } = openExplorer();
    await waitFor(() => expect(row(0)).toBeInTheDocument());
    expect(row(0).closest('table')).not.toHaveClass('table-hover');
    await demoChainOf20(user, 'Tamper demo');
    // the note comes with the build's answer; the table reads the new chain's rows after it
    await waitFor(() => expect(row(4).closest('table')).toHaveClass('table-hover'));
    await user.click(row(4).querySelector('td.explorer-title')!);
    expect(await screen.findByRole('heading', { name: 'Sandbox chain: block #4' })).toBeInTheDocument();
  });

  it('titles the explorer like every other page', async () => {
    openExplorer();
    expect(await screen.findByRole('heading', { level: 1, name: 'Blockchain Explorer' })).toHaveClass('page-title');
  });
});
