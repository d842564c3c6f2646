// A screen's query that failed once and then answered: the failure goes, also when the answer is the one shown before.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createKeptAnswers } from '../../src/ledger/kept-answers';
import { LedgerContext, type LedgerRemote } from '../../src/ledger/ledger-context';
import { createVersionStore } from '../../src/ledger/ledger-versions';
import { createSharedQuery } from '../../src/ledger/shared-query';
import { useLedgerQuery } from '../../src/ledger/use-ledger-query';

const answers: (() => Promise<{ count: number }>)[] = [
  () => Promise.resolve({ count: 3 }),
  () => Promise.reject(new Error('The stored records could not be loaded.')),
  () => Promise.resolve({ count: 3 }),
];
const load = () => answers.shift()!();

function Count() {
  const query = useLedgerQuery(load);
  return (
    <>
      <p>
        {query.data ? `Count ${query.data.count}` : 'Loading'}
        {query.error ? ` Failed: ${query.error.message}` : ''}
      </p>
      <button type="button" onClick={query.reload}>
        Try again
      </button>
    </>
  );
}

describe('a ledger query retried after a failure', () => {
  it('clears the failure when the retry answers what was shown before', async () => {
    const context = {
      service: {} as LedgerRemote,
      versions: createVersionStore(),
      chainStatus: createSharedQuery(() => Promise.reject(new Error('not read here'))),
      answers: createKeptAnswers(),
    };
    render(
      <LedgerContext.Provider value={context}>
        <Count />
      </LedgerContext.Provider>,
    );
    expect(await screen.findByText('Count 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Count 3 Failed: The stored records could not be loaded.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByText(/^Count 3/)).toHaveTextContent(/^Count 3$/));
    expect(answers).toHaveLength(0); // the third answer was asked for and shown
  });
});
