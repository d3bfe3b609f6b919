import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));

type LockPackage = { version?: string; engines?: Record<string, string> | string[] };

describe('engines', () => {
  const declared: string = readJson('package.json').engines.node;

  it('declares a Node range this machine (and CI) runs', () => {
    expect(semver.satisfies(process.version, declared)).toBe(true);
  });

  it('is true: every installed package accepts the oldest Node of each range the root declares', () => {
    // The oldest version of each alternative (`^20.19.0 || >=22.13.0` → 20.19.0 and 22.13.0).
    const floors = new semver.Range(declared).set.map((comparators) =>
      semver.minVersion(new semver.Range(comparators.map((comparator) => comparator.value).join(' '))),
    );
    const packages = Object.entries(readJson('package-lock.json').packages as Record<string, LockPackage>);
    const refusing: string[] = [];
    for (const [location, info] of packages) {
      const wanted = !Array.isArray(info.engines) ? info.engines?.node : undefined;
      if (!wanted) continue;
      for (const floor of floors) {
        if (floor && !semver.satisfies(floor, wanted))
          refusing.push(`${location}@${info.version} wants ${wanted}, not ${floor}`);
      }
    }
    expect(refusing).toEqual([]);
    expect(packages.length).toBeGreaterThan(100);
  });
});
