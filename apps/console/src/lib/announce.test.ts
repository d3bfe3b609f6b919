import { afterEach, describe, expect, it } from 'vitest';
import { announce, focusSoon } from './announce';

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

describe('announce and focusSoon', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('says a message in one polite status region, again when it repeats', async () => {
    announce('Domain removed');
    await frame();
    const regions = document.querySelectorAll('[role="status"][aria-live="polite"]');
    expect(regions).toHaveLength(1);
    expect(regions[0]?.textContent).toBe('Domain removed');
    announce('Domain removed');
    expect(regions[0]?.textContent).toBe('');
    await frame();
    expect(regions[0]?.textContent).toBe('Domain removed');
    expect(document.querySelectorAll('[role="status"]')).toHaveLength(1);
  });

  it('waits for an element a later render brings, a few frames on', async () => {
    document.body.innerHTML = '<button>Load more</button><ul></ul>';
    focusSoon(() => document.querySelector<HTMLElement>('li button'));
    await frame();
    await frame();
    document.querySelector('ul')?.insertAdjacentHTML('beforeend', '<li><button>Inspect</button></li>');
    await frame();
    await frame();
    expect(document.activeElement?.textContent).toBe('Inspect');
  });

  it('moves focus after the render, making a heading focusable by script only', async () => {
    document.body.innerHTML = '<button>Remove</button><h2>Domains</h2>';
    document.querySelector('button')?.focus();
    focusSoon(() => document.querySelector('h2'));
    await frame();
    expect(document.activeElement?.tagName).toBe('H2');
    expect(document.querySelector('h2')?.getAttribute('tabindex')).toBe('-1');
  });
});
