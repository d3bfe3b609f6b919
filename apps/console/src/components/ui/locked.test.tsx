import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Locked } from './locked';

describe('Locked', () => {
  it('adds no unnamed group around controls a person may use', () => {
    render(
      <Locked reason={null}>
        <button type="button">Save</button>
      </Locked>,
    );
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(false);
  });

  it('disables the controls inside and says why', () => {
    render(
      <Locked reason="Only admins can change this.">
        <button type="button">Save</button>
      </Locked>,
    );
    const group = screen.getByRole<HTMLFieldSetElement>('group');
    expect(group.getAttribute('aria-description')).toBe('Only admins can change this.');
    expect(group.disabled).toBe(true);
    expect(group.contains(screen.getByRole('button', { name: 'Save' }))).toBe(true);
  });
});
