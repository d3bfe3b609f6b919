import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchCase } from '../bench-case.ts';

/**
 * Every case of every file in bench/cases/ (sorted by file name), or with `only` (comma-separated words,
 * case-insensitive) those whose name holds one of them.
 */
export async function loadCases(only?: string): Promise<BenchCase[]> {
  const dir = path.join(import.meta.dirname, '..', 'cases');
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort();
  const all: BenchCase[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { cases?: BenchCase[] };
    if (!Array.isArray(module.cases)) throw new Error(`bench/cases/${file} must export cases: BenchCase[]`);
    all.push(...module.cases);
  }
  const words = only?.toLowerCase().split(',').filter(Boolean);
  if (!words) return all;
  const chosen = all.filter((c) => words.some((word) => c.name.toLowerCase().includes(word)));
  if (chosen.length === 0) throw new Error(`--only ${only}: no query's name holds it`);
  return chosen;
}
