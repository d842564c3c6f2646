import { render } from '@testing-library/react';
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PageSpinner } from '../../src/components/page-spinner';
import { whenNoScreenPending } from '../../src/components/pending-screen';

describe('The first screen shown', () => {
  function Screen({ onSwap }: { onSwap: (swap: (step: number) => void) => void }) {
    const [step, setStep] = useState(0);
    onSwap(setStep);
    if (step === 0) return <PageSpinner label="Restoring your session" />;
    if (step === 1) return <PageSpinner key="second" label="Loading your dashboard" />;
    return <h1>Dashboard</h1>;
  }

  it('waits while one spinner gives way to another, and runs once no spinner is left', async () => {
    let swap: (step: number) => void = () => undefined;
    render(<Screen onSwap={(next) => (swap = next)} />);
    let shown = 0;
    whenNoScreenPending(() => (shown += 1));
    await act(async () => swap(1));
    expect(shown).toBe(0);
    await act(async () => swap(2));
    expect(shown).toBe(1);
  });
});
