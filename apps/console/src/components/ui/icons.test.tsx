import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AlertTriangle, ChevronDown, X } from './icons';

describe('icons', () => {
  it('draws the Lucide icon as lucide-react did: 24 px, stroked in currentColor, the caller’s classes added', () => {
    const { container } = render(<ChevronDown className="h-4 w-4" />);
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('class')).toBe('lucide lucide-chevron-down h-4 w-4');
    expect(svg?.getAttribute('viewBox')).toBe('0 0 24 24');
    expect(svg?.getAttribute('width')).toBe('24');
    expect(svg?.querySelector('path')?.getAttribute('stroke')).toBe('currentColor');
    expect(svg?.querySelector('path')?.getAttribute('d')).toBe('m6 9l6 6l6-6');
  });

  it('maps lucide-react’s older names to the icon they drew', () => {
    const { container } = render(<AlertTriangle />);
    expect(container.querySelector('svg')?.getAttribute('class')).toBe('lucide lucide-triangle-alert');
    expect(container.querySelector('path')).not.toBeNull();
  });

  it('is hidden from assistive technology unless it is given a name', () => {
    const { container, getByRole } = render(
      <>
        <X />
        <X role="img" aria-label="Close" />
      </>,
    );
    expect(container.querySelectorAll('svg')[0]?.getAttribute('aria-hidden')).toBe('true');
    expect(getByRole('img', { name: 'Close' }).getAttribute('aria-hidden')).toBeNull();
  });
});
