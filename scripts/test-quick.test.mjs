import { describe, expect, it } from 'vitest';
import { plan } from './test-quick.mjs';

const base = 'abc123';

describe('test:quick', () => {
  it('runs the server tests of the touched module and the architecture test, not every server test', () => {
    const { tsc, runs } = plan(['apps/server/src/modules/incidents/fingerprint.ts'], { base });
    expect(tsc).toEqual(['apps/server']);
    expect(runs).toEqual([
      ['--project', 'server', 'apps/server/test/architecture.test.ts', 'apps/server/test/incidents'],
    ]);
  });

  it('runs a touched server test itself, and the tests named after a top-level file', () => {
    expect(plan(['apps/server/test/health.test.ts', 'apps/server/src/config.ts'], { base }).runs).toEqual([
      [
        '--project',
        'server',
        'apps/server/test/architecture.test.ts',
        'apps/server/test/health.test.ts',
        'apps/server/test/config',
      ],
    ]);
  });

  it('runs the console and the SDK tests that import a touched file, and type-checks contracts users', () => {
    const { tsc, lint, runs } = plan(
      ['apps/console/src/lib/format.ts', 'packages/contracts/src/events.ts', 'README.md'],
      { base },
    );
    expect(tsc.sort()).toEqual(['apps/console', 'apps/server', 'packages/contracts', 'packages/sdk']);
    expect(lint).toEqual(['apps/console/src/lib/format.ts', 'packages/contracts/src/events.ts']);
    expect(runs).toEqual([['--project', 'console', '--changed', base]]);
  });

  it("runs a console feature's own tests and the boundary test for a change inside the feature", () => {
    expect(
      plan(['apps/console/src/features/incidents/components/severity-badge.tsx'], { base }).runs,
    ).toEqual([
      [
        '--project',
        'console',
        'apps/console/src/app/feature-boundaries.test.ts',
        'apps/console/src/features/incidents/',
      ],
    ]);
  });

  it('checks the decision records when docs change, and whole projects with --all', () => {
    expect(plan(['docs/decisions/053-ingestion-log-and-loader.md'], { base }).runs).toEqual([
      ['scripts/docs-records.test.mjs'],
    ]);
    expect(plan(['apps/server/src/app.ts'], { base, all: true }).runs).toEqual([
      ['--project', 'server', '--project', 'server-clickhouse'],
    ]);
  });
});
