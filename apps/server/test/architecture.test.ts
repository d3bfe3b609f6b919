import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's boundaries (docs/ARCHITECTURE.md, "Boundaries"), checked on every test run: a module
 * reaches another only through the files that other module offers, each engine's driver stays inside
 * its adapter (DuckDB, ClickHouse), and the modules import each other one way.
 */

const SRC = path.resolve(import.meta.dirname, '../src');
const MODULES = path.join(SRC, 'modules');

/**
 * What each module offers the others (paths inside its folder). The composition roots (app.ts, main.ts and the
 * admin CLI in src/admin/, which opens the stores itself) may import any file; every other import into
 * a module's folder from outside it must name one of these.
 */
const PUBLIC_FILES: Record<string, readonly string[]> = {
  auth: ['guard.ts', 'sessions.ts'],
  mail: ['service.ts'],
  projects: [],
  // The port: its types, the event row, the log record format and the questions, never an adapter.
  'event-store': [
    'domain.ts',
    'event-store.ts',
    'event-row.ts',
    'event-batch.ts',
    'log-records.ts',
    'analytics-questions.ts',
    'acquisition-questions.ts',
    'incident-questions.ts',
    'wallet-questions.ts',
    'alert-questions.ts',
    'custom-event-questions.ts',
    'funnel-questions.ts',
  ],
  ingestion: [],
  analytics: [],
  acquisition: [],
  // The incident fingerprint: a pure function that ingestion stamps on error events.
  incidents: ['fingerprint.ts', 'wallet-noise.ts'],
  health: [],
  // Who reads a project's dashboards and exports: a session or a read token (GraphQL and the export).
  'read-tokens': ['guard.ts'],
  // Source maps and write tokens (ADR 066): app.ts hands the symbolicator to ingestion and incidents.
  sourcemaps: [],
  'event-export': [],
  wallets: [],
  'custom-events': [],
  // Members, invitations and ownership (docs/teams.md); the other modules check roles through the
  // projects service (lib/access.ts) and record through the audit log's service, both handed by app.ts.
  members: [],
  'audit-log': [],
  // Dated notes on the time charts (docs/annotations.md).
  annotations: [],
  // Custom funnels (docs/funnels.md): saved funnels and their question.
  funnels: [],
  // Alert channels: app.ts hands its service's enqueueNotice to the alert rules (issue 27).
  'alert-channels': [],
  // Email reports (docs/reports.md): app.ts hands them the dashboard services and the mail outbox.
  reports: [],
  // Alert rules (issue 27): no other module imports them; app.ts hands the channels' notify in.
  'alert-rules': [],
};

const COMPOSITION_ROOTS = [path.join(SRC, 'app.ts'), path.join(SRC, 'main.ts'), path.join(SRC, 'admin')];

/** Where each engine's driver may be imported (bench and tests aside). */
const DUCKDB_ADAPTER = path.join(MODULES, 'event-store', 'duckdb');
const CLICKHOUSE_ADAPTER = path.join(MODULES, 'event-store', 'clickhouse');
/** One folder per question: its signature and row schema, and each engine's SQL beside it (ADR 049). */
const QUESTIONS = path.join(MODULES, 'event-store', 'questions');
const QUESTION_FILES = ['clickhouse.ts', 'duckdb.ts', 'question.ts'];
/** The event store's domain constants, defined once (ADR 049). */
const DOMAIN = path.join(MODULES, 'event-store', 'domain.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

type Import = { from: string; specifier: string; target: string | null };

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s(?:[^;']*?\sfrom\s+)?'([^']+)'/g)].map(
    (match) => match[1] as string,
  );
  return specifiers.map((specifier) => ({
    from: file,
    specifier,
    target: specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null,
  }));
}

const moduleOf = (file: string): string | null => {
  const relative = path.relative(MODULES, file);
  return relative.startsWith('..') ? null : (relative.split(path.sep)[0] ?? null);
};
const shown = (file: string) => path.relative(SRC, file);

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);

describe('server boundaries', () => {
  it('knows every module folder (a new module declares what it offers)', () => {
    expect(readdirSync(MODULES).sort()).toEqual(Object.keys(PUBLIC_FILES).sort());
  });

  it('lets a module reach another only through the files that one offers', () => {
    const breaches = imports
      .filter(({ from, target }) => {
        if (!target || COMPOSITION_ROOTS.some((root) => from === root || from.startsWith(root + path.sep)))
          return false;
        const owner = moduleOf(target);
        if (!owner || owner === moduleOf(from)) return false;
        const inside = path.relative(path.join(MODULES, owner), target);
        return !(PUBLIC_FILES[owner] ?? []).includes(inside);
      })
      .map(({ from, specifier }) => `${shown(from)} imports ${specifier}`);
    expect(breaches).toEqual([]);
  });

  it('keeps the DuckDB driver inside the DuckDB adapter', () => {
    const breaches = imports
      .filter(({ from, specifier }) => specifier.startsWith('@duckdb/') && !from.startsWith(DUCKDB_ADAPTER))
      .map(({ from }) => shown(from));
    expect(breaches).toEqual([]);
  });

  it('keeps the ClickHouse client inside the ClickHouse adapter, and chdb (tests only) out of the server', () => {
    const breaches = imports
      .filter(
        ({ from, specifier }) =>
          (specifier.startsWith('@clickhouse/') && !from.startsWith(CLICKHOUSE_ADAPTER)) ||
          specifier === 'chdb' ||
          specifier.startsWith('chdb/'),
      )
      .map(({ from, specifier }) => `${shown(from)} imports ${specifier}`);
    expect(breaches).toEqual([]);
  });

  it('has the modules import each other one way (no cycle)', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, target } of imports) {
      const a = moduleOf(from);
      const b = target && moduleOf(target);
      if (a && b && a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const visit = (node: string, trail: string[]) => {
      if (trail.includes(node)) {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
        return;
      }
      for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('keeps the shared reading machinery and lib free of the modules', () => {
    const breaches = imports
      .filter(
        ({ from, target }) =>
          target &&
          moduleOf(target) &&
          [path.join(SRC, 'reading'), path.join(SRC, 'lib')].some((dir) => from.startsWith(dir + path.sep)),
      )
      .map(({ from, specifier }) => `${shown(from)} imports ${specifier}`);
    expect(breaches).toEqual([]);
  });

  it('keeps each event store question in one folder: question.ts, duckdb.ts, clickhouse.ts', () => {
    const folders = readdirSync(QUESTIONS, { withFileTypes: true });
    expect(folders.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    const odd = folders
      .map((folder) => [folder.name, readdirSync(path.join(QUESTIONS, folder.name)).sort()] as const)
      .filter(([, names]) => JSON.stringify(names) !== JSON.stringify(QUESTION_FILES))
      .map(([name, names]) => `${name}: ${names.join(', ')}`);
    expect(folders.length).toBeGreaterThan(0);
    expect(odd).toEqual([]);
  });

  it("has each question's engine file reach only its own adapter, and question.ts neither", () => {
    const adapterOf = (file: string) => {
      if (file.startsWith(DUCKDB_ADAPTER + path.sep)) return 'duckdb';
      if (file.startsWith(CLICKHOUSE_ADAPTER + path.sep)) return 'clickhouse';
      if (file.startsWith(QUESTIONS + path.sep)) {
        const name = path.basename(file, '.ts');
        return name === 'duckdb' || name === 'clickhouse' ? name : 'question';
      }
      return null;
    };
    const breaches = imports
      .filter(({ from, target }) => {
        if (!target || !from.startsWith(QUESTIONS + path.sep)) return false;
        const own = adapterOf(from);
        const reached = adapterOf(target);
        return reached !== null && reached !== 'question' && reached !== own;
      })
      .map(({ from, specifier }) => `${shown(from)} imports ${specifier}`);
    expect(breaches).toEqual([]);
  });

  it('defines each domain constant of the event store once, in domain.ts', () => {
    const names = [...readFileSync(DOMAIN, 'utf8').matchAll(/^export const ([A-Z][A-Z_]+) =/gm)].map(
      (match) => match[1] as string,
    );
    expect(names.length).toBeGreaterThan(5);
    const elsewhere = [...files, ...sourceFiles(path.resolve(SRC, '../bench'))]
      .filter((file) => file !== DOMAIN)
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return names
          .filter((name) => new RegExp(`\\bconst ${name}\\b`).test(text))
          .map((name) => `${name} in ${path.relative(SRC, file)}`);
      });
    expect(elsewhere).toEqual([]);
  });
});
