import { waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { mountApp } from '../../src/app/mount-app';
import { PageSpinner } from '../../src/components/page-spinner';

// What a render that Preact schedules at once (in a microtask) has done by now.
const afterMicrotasks = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('Mounting the app (src/app/mount-app.tsx)', () => {
  afterEach(() => document.body.replaceChildren());

  it('renders each change of state in a task of its own until the first screen shows, then at once', async () => {
    let setStep: (step: number) => void = () => undefined;
    function Screen() {
      const [step, set] = useState(0);
      setStep = set;
      if (step < 2) return <PageSpinner label={`Loading, step ${step}`} />;
      return <h1>Dashboard, step {step}</h1>;
    }
    const root = document.createElement('div');
    document.body.append(root);
    mountApp(root, <Screen />);
    await waitFor(() => expect(root.textContent).toContain('step 0'));

    setStep(1); // a spinner is on screen: the first screen is not shown yet
    await afterMicrotasks();
    expect(root.textContent).toContain('step 0');
    await waitFor(() => expect(root.textContent).toContain('step 1'));

    setStep(2); // the spinner goes: the first screen shows
    await waitFor(() => expect(root.textContent).toContain('Dashboard, step 2'));
    setStep(3);
    await afterMicrotasks();
    expect(root.textContent).toContain('Dashboard, step 3');
  });
});
