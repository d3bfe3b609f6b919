import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** index.css without its `@layer …{}` blocks: the rules that win over every Tailwind utility. */
function unlayeredRules(css: string): string {
  let rest = css;
  for (let start = rest.indexOf('@layer'); start !== -1; start = rest.indexOf('@layer')) {
    const open = rest.indexOf('{', start);
    const semicolon = rest.indexOf(';', start);
    if (semicolon !== -1 && semicolon < open) {
      rest = rest.slice(0, start) + rest.slice(semicolon + 1);
      continue;
    }
    let depth = 0;
    let end = open;
    for (; end < rest.length; end++) {
      if (rest[end] === '{') depth++;
      else if (rest[end] === '}' && --depth === 0) break;
    }
    rest = rest.slice(0, start) + rest.slice(end + 1);
  }
  return rest;
}

describe('index.css focus styles', () => {
  it('leaves focus rings to the components: no unlayered :focus-visible rule overrides their utilities', () => {
    const css = readFileSync(join(import.meta.dirname, 'index.css'), 'utf8');
    // The default ring for links is there, in the base layer.
    expect(css).toMatch(/@layer base\s*\{[^@]*a:focus-visible\s*\{/);
    // An unlayered one beat the sidebar's `focus-visible:outline-white`: indigo-600 on indigo-800, 1.6:1.
    expect(unlayeredRules(css)).not.toContain(':focus-visible');
  });
});
