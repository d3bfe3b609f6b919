import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ShowAllButton } from './show-all-button';

type Row = { name: string; users: number };

describe('Show all', () => {
  it('breaks a long name at its seams, never inside a word, and keeps its figures whole', async () => {
    const user = userEvent.setup();
    render(
      <ShowAllButton<Row>
        title="Custom events"
        rows={[
          { name: 'swap_quote_requested', users: 12_345 },
          { name: 'swapExactETHForTokens', users: 7 },
        ]}
        columns={[
          { header: 'Event', cell: (row) => row.name },
          { header: 'Users', cell: (row) => row.users.toLocaleString('en-US'), isNumber: true },
        ]}
        keyOf={(row) => row.name}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Show all (2) Custom events' }));
    const dialog = screen.getByRole('dialog', { name: 'Custom events: all 2' });
    const [quote, swap] = within(dialog)
      .getAllByRole('cell')
      .filter((cell) => !/^\d/.test(cell.textContent ?? ''));
    for (const cell of [quote, swap] as HTMLElement[]) {
      expect(cell.className).not.toMatch(/break-all|wrap-anywhere/);
      expect(cell.className).toContain('break-words');
    }
    // The same text for copying and for screen readers, with a break opportunity at each seam.
    expect(quote?.textContent).toBe('swap_quote_requested');
    expect(quote?.querySelectorAll('wbr')).toHaveLength(2);
    expect(swap?.querySelectorAll('wbr')).toHaveLength(4);
    const figure = within(dialog).getByRole('cell', { name: '12,345' });
    expect(figure.querySelector('wbr')).toBeNull();
  });
});
