// The kept answers of named queries (src/ledger/kept-answers.ts): by version, for one user, a failure never kept.
import { describe, expect, it, vi } from 'vitest';
import { createKeptAnswers } from '../../src/ledger/kept-answers';

describe('kept answers', () => {
  it('asks once per version, keeps what arrived, and asks again at another version or when asked fresh', async () => {
    const answers = createKeptAnswers();
    answers.keepFor('patient-1');
    const load = vi.fn(async () => ({ total: load.mock.calls.length }));
    const first = answers.answer('overview', 3, load);
    expect(answers.answer('overview', 3, load)).toBe(first); // in flight: the same question, not a second one
    expect(answers.settled('overview', 3)).toBeUndefined();
    await first;
    expect(answers.settled('overview', 3)).toEqual({ data: { total: 1 } });
    expect(answers.settled('overview', 4)).toBeUndefined(); // a change since: not shown
    await answers.answer('overview', 4, load);
    await answers.answer('overview', 4, load, true);
    expect(load).toHaveBeenCalledTimes(3);
    expect(answers.settled('overview', 4)).toEqual({ data: { total: 3 } });
  });

  it('keeps no failure: the next screen asks again', async () => {
    const answers = createKeptAnswers();
    await expect(answers.answer('overview', 1, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(answers.settled('overview', 1)).toBeUndefined();
    await expect(answers.answer('overview', 1, async () => 'fine')).resolves.toBe('fine');
  });

  it("holds one user's answers only: another user, a sign-out or a clear empties them", async () => {
    const answers = createKeptAnswers();
    answers.keepFor('patient-1');
    await answers.answer('overview', 1, async () => 'Sarah');
    answers.keepFor('patient-1'); // the same user again keeps them
    expect(answers.settled('overview', 1)).toEqual({ data: 'Sarah' });
    answers.keepFor('patient-2');
    expect(answers.settled('overview', 1)).toBeUndefined();
    await answers.answer('overview', 1, async () => 'Michael');
    answers.keepFor(null);
    expect(answers.settled('overview', 1)).toBeUndefined();
    answers.keepFor('patient-2');
    await answers.answer('overview', 1, async () => 'Michael');
    answers.clear();
    expect(answers.settled('overview', 1)).toBeUndefined();
  });

  it('does not keep an answer asked for one user that arrives after another signed in', async () => {
    const answers = createKeptAnswers();
    answers.keepFor('patient-1');
    let arrive: (value: string) => void = () => undefined;
    const late = answers.answer('overview', 1, () => new Promise<string>((resolve) => (arrive = resolve)));
    answers.keepFor('patient-2');
    arrive('Sarah');
    await late;
    expect(answers.settled('overview', 1)).toBeUndefined();
  });

  it('keeps the 50 answers used last', async () => {
    const answers = createKeptAnswers();
    for (let search = 0; search <= 50; search++) await answers.answer(`records:${search}`, 1, async () => search);
    expect(answers.settled('records:0', 1)).toBeUndefined();
    expect(answers.settled('records:1', 1)).toEqual({ data: 1 });
    expect(answers.settled('records:50', 1)).toEqual({ data: 50 });
  });
});
