// Issue 5, bad input on SOS Emergency Access: the reason's stated limit, with the rest of the form kept.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MAX_REASON_LENGTH } from '../../workers/core/constants';
import { renderApp } from './render-app';

const grantButton = () => screen.getByRole('button', { name: /Grant Emergency Access|Granting Access/ });
const reasonField = () => screen.getByLabelText('Reason for emergency access') as HTMLTextAreaElement;

describe('the emergency reason', () => {
  it('keeps a pasted 10,000-character reason whole, says the limit and holds Grant until it is shortened', async () => {
    const { user, ledger } = renderApp('/doctor/emergency', { signedInAs: 'doctor-1' });
    await user.click(await screen.findByRole('radio', { name: /Sarah Johnson/ }));
    await user.click(screen.getByRole('radio', { name: /Full/ }));
    await user.click(reasonField());
    await user.paste('r'.repeat(10_000));

    expect(reasonField().value).toHaveLength(10_000);
    expect(reasonField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(`The reason is longer than ${MAX_REASON_LENGTH} characters.`)).toBeInTheDocument();
    expect(grantButton()).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Sarah Johnson/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Full/ })).toBeChecked();

    await user.clear(reasonField());
    await user.paste('r'.repeat(MAX_REASON_LENGTH));
    expect(reasonField()).not.toHaveAttribute('aria-invalid', 'true');
    expect(grantButton()).toBeEnabled();
    await user.click(grantButton());
    await screen.findByRole('button', { name: 'End Emergency Session' }, { timeout: 5000 });
    const [grant] = await ledger.service.activeGrants();
    expect(grant.reason).toHaveLength(MAX_REASON_LENGTH);
  });
});
