import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../src/config.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

describe('configuration docs follow config.ts', () => {
  it('reads the variables we expect (the list below the docs are checked against)', () => {
    expect(ENV_VARIABLES).toContain('GEOIP_DB');
    expect(ENV_VARIABLES).toContain('METRICS_TOKEN');
    expect(ENV_VARIABLES.length).toBeGreaterThan(15);
  });

  it("lists every variable in the README's configuration table", () => {
    const readme = read('README.md');
    const table = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5),
    );
    const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]));
    expect(ENV_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('lists every variable in .env.example, and nothing the server does not read', () => {
    const example = read('.env.example');
    const listed = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect([...new Set(listed)].sort()).toEqual([...ENV_VARIABLES].sort());
  });
});
