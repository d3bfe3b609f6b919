import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Navbar } from './navbar';

describe('Navbar', () => {
  it('puts its controls in the page in the order they are shown, at every width', () => {
    render(
      <Navbar email="ada@example.com" projectName="Shop" onToggleSwitcher={() => {}} onLogOut={() => {}} />,
    );
    const controls = [
      screen.getByRole('button', { name: 'Switch project (current: Shop)' }),
      screen.getByRole('link', { name: 'Read the Docs' }),
      screen.getByRole('button', { name: 'Log Out' }),
    ];
    for (const [before, after] of controls
      .slice(0, -1)
      .map((control, index) => [control, controls[index + 1]])) {
      expect(before?.compareDocumentPosition(after as Node) ?? 0).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    }
    // Tab follows the page's order: CSS `order` that moved the project chip under the account links on a
    // phone (Tab still reached it first) is not used; the layout wraps in that same order instead.
    const reordered = [...document.querySelectorAll('header *')].filter((element) =>
      /(^|\s|:)order-/.test(element.getAttribute('class') ?? ''),
    );
    expect(reordered).toEqual([]);
  });
});
