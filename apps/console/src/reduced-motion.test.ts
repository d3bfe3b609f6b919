import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Under the system's "reduce motion" (WCAG 2.3.3) nothing in the console moves on its own (docs/analytics.md,
// "Motion"): index.css stops every animation class a component uses. The Live journey checks the rule in a
// browser, both ways (e2e/tests/live/live.spec.ts); this test fails when a component starts using an
// animation class that the rule does not stop.
const srcDir = resolve(import.meta.dirname);

function componentFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return componentFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function reducedMotionRule(css: string): string {
  const start = css.indexOf('@media (prefers-reduced-motion: reduce)');
  expect(start, 'index.css has a prefers-reduced-motion rule').toBeGreaterThanOrEqual(0);
  return css.slice(start, css.indexOf('\n}', start));
}

describe('reduced motion', () => {
  const rule = reducedMotionRule(readFileSync(join(srcDir, 'index.css'), 'utf8'));

  it('stops every animation class the console uses', () => {
    const used = new Set(
      componentFiles(srcDir).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/\banimate-[a-z-]+/g)].map((match) => match[0]),
      ),
    );
    used.delete('animate-none');
    const stopped = new Set([...rule.matchAll(/\.(animate-[a-z-]+)/g)].map((match) => match[1]));
    expect([...used].filter((name) => !stopped.has(name))).toEqual([]);
    expect(used.size).toBeGreaterThanOrEqual(4);
    expect(rule).toMatch(/animation: none;/);
  });
});
