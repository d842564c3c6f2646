import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { HashBadge } from '../../src/components/hash-badge';

const HASH = '00ab34cd'.padEnd(64, 'e');

describe('HashBadge', () => {
  it('shows the first 8 hex digits with the full hash in its title', () => {
    render(<HashBadge hash={HASH} />);
    const short = screen.getByText('00ab34cd');
    expect(short).toHaveAttribute('title', HASH);
    expect(screen.queryByText(HASH)).not.toBeInTheDocument();
  });

  it('copies the full hash and says so', async () => {
    const user = userEvent.setup(); // installs a clipboard stub on navigator
    render(<HashBadge hash={HASH} label="record hash" />);
    await user.click(screen.getByRole('button', { name: 'Copy full record hash' }));
    expect(await navigator.clipboard.readText()).toBe(HASH);
    expect(await screen.findByText('Copied')).toBeInTheDocument();
  });
});
