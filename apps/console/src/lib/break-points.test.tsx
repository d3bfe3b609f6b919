import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Breakable, breakPoints } from './break-points';

describe('breakPoints', () => {
  it('splits identifiers, domains and paths at their seams only', () => {
    expect(breakPoints('quote_requested')).toEqual(['quote_', 'requested']);
    expect(breakPoints('bridge_route_selected')).toEqual(['bridge_', 'route_', 'selected']);
    expect(breakPoints('google.com')).toEqual(['google', '.com']);
    expect(breakPoints('swapExactETHForTokens')).toEqual(['swap', 'Exact', 'ETH', 'For', 'Tokens']);
    expect(breakPoints('/app/pool-v2')).toEqual(['/', 'app/', 'pool-', 'v2']);
    expect(breakPoints('t.co')).toEqual(['t', '.co']);
    // Nothing to split: one part, never split inside.
    expect(breakPoints('approve')).toEqual(['approve']);
    expect(breakPoints('')).toEqual([]);
  });

  it('renders the same text with <wbr> at the seams', () => {
    const { container } = render(
      <p>
        <Breakable text="swapExactETHForTokens" />
      </p>,
    );
    expect(container.textContent).toBe('swapExactETHForTokens');
    expect(container.querySelectorAll('wbr')).toHaveLength(4);
  });
});
