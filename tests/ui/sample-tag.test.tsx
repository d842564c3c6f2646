import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SampleTag } from '../../src/components/sample-tag';

const EXPLANATION = 'Sample figure: fixed demo data, not taken from your records.';

describe('a sample figure says so in a tooltip', () => {
  it('shows the explanation on hover and hides it when the pointer leaves', async () => {
    const user = userEvent.setup();
    render(<SampleTag />);
    const tag = screen.getByRole('button', { name: `Sample. ${EXPLANATION}` });
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    await user.hover(tag);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(EXPLANATION);
    await user.unhover(tag);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('shows it on keyboard focus, and Escape dismisses it while focus stays on the tag', async () => {
    const user = userEvent.setup();
    render(<SampleTag />);
    await user.tab();
    const tag = screen.getByRole('button', { name: /^Sample\./ });
    expect(tag).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(EXPLANATION);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    expect(tag).toHaveFocus();
  });

  it('stays inside the window beside its right edge', async () => {
    render(<SampleTag />);
    const tag = screen.getByRole('button', { name: /^Sample\./ });
    tag.getBoundingClientRect = () => DOMRect.fromRect({ x: window.innerWidth - 30, y: 300, width: 20, height: 16 });
    fireEvent.focus(tag);
    const tooltip = await screen.findByRole('tooltip');
    expect(parseFloat(tooltip.style.left) + 100).toBeLessThanOrEqual(window.innerWidth);
    expect(tooltip.style.top).toBe('300px');
  });

  it('opens below the tag when the tag is near the top of the window', async () => {
    render(<SampleTag />);
    const tag = screen.getByRole('button', { name: /^Sample\./ });
    tag.getBoundingClientRect = () => DOMRect.fromRect({ x: 200, y: 100, width: 20, height: 16 });
    fireEvent.focus(tag);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveClass('bs-tooltip-bottom');
    expect(tooltip.style.top).toBe('116px');
  });
});
