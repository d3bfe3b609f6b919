import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// Features never import each other or src/app; src/app composes them (docs/ARCHITECTURE.md). Biome's
// noRestrictedImports enforces it in the editor and in `npm test`'s lint step (biome.json, one override per
// feature); this test resolves every import for real, and fails when a new feature has no override.
const srcDir = resolve(import.meta.dirname, '..');
const featuresDir = join(srcDir, 'features');
const features = readdirSync(featuresDir).filter((name) => statSync(join(featuresDir, name)).isDirectory());

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Where a relative import lands: the feature it is in, `app`, or null (shared code). */
function owner(path: string): string | null {
  const inSrc = relative(srcDir, path).split(sep);
  if (inSrc[0] === 'app') return 'app';
  return inSrc[0] === 'features' ? (inSrc[1] ?? null) : null;
}

describe('feature boundaries', () => {
  it('no feature imports another feature or src/app', () => {
    const crossings: string[] = [];
    for (const feature of features) {
      for (const file of sourceFiles(join(featuresDir, feature))) {
        for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
          const specifier = match[1] ?? match[2] ?? '';
          if (!specifier.startsWith('.')) continue;
          const target = owner(resolve(dirname(file), specifier));
          if (target !== null && target !== feature) {
            crossings.push(`${relative(srcDir, file)} imports ${specifier}`);
          }
        }
      }
    }
    expect(crossings).toEqual([]);
  });

  it('biome.json forbids every other feature to each feature', () => {
    const biome = JSON.parse(readFileSync(join(srcDir, '../../../biome.json'), 'utf8')) as {
      overrides?: Array<{
        includes: string[];
        linter?: {
          rules?: {
            style?: { noRestrictedImports?: { options?: { patterns?: Array<{ group: string[] }> } } };
          };
        };
      }>;
    };
    for (const feature of features) {
      const override = biome.overrides?.find((candidate) =>
        candidate.includes.includes(`apps/console/src/features/${feature}/**`),
      );
      const groups = override?.linter?.rules?.style?.noRestrictedImports?.options?.patterns?.flatMap(
        (pattern) => pattern.group,
      );
      expect(groups, `biome.json has no import restriction for features/${feature}`).toBeDefined();
      for (const other of features.filter((name) => name !== feature)) {
        expect(groups).toContain(`**/${other}/**`);
      }
      expect(groups).toContain('**/app/**');
    }
  });
});
