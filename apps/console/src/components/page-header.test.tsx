import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOCS } from './docs-links';
import { PageHeader } from './page-header';

describe('PageHeader', () => {
  it("links the screen's help to its documentation page, in a new tab", () => {
    render(<PageHeader title="Live" help={{ href: DOCS.live, topic: 'the live view' }} />);
    const link = screen.getByRole('link', {
      name: 'Help: the live view (documentation, opens in a new tab)',
    });
    expect(link.getAttribute('href')).toBe('/docs/live.html');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noreferrer');
  });

  it('shows no help link when the screen has none', () => {
    render(<PageHeader title="Somewhere" />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
