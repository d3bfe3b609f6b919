import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The server's boundaries (docs/ARCHITECTURE.md, "Boundaries"), checked on every test run: a module
 * reaches another only through the files that other module offers, each engine's driver stays inside
 * its adapter (DuckDB, ClickHouse), and the modules import each other one way.
 */

const SRC = path.resolve(import.meta.dirname, '../src');
const MODULES = path.join(SRC, 'modules');

/**
 * What each module offers the others (paths inside its folder). The composition roots (app.ts, main.ts, server.ts and the
 * admin CLI in src/admin/, which opens the stores itself) may import any file; every other import into
 * a module's folder from outside it must name one of these.
 */
const PUBLIC_FILES: Record<string, readonly string[]> = {
  auth: ['guard.ts', 'sessions.ts'],
  mail: ['service.ts'],
  // The projects' rows and who may reach them (roles, API keys, change listeners): the projects service
  // is built with it, after the modules it hands a project's deletion to (ADR 075).
  'project-access': ['service.ts', 'store.ts'],
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
    'goal-questions.ts',
  ],
  // The ingestion log and its loader: admission reads its backlog, ingestion commits into it.
  'ingest-log': ['service.ts', 'log-writer.ts', 'group-commit.ts'],
  ingestion: [],
  // The live streams (docs/live.md): subscribed to the log's commits, a project's deletion, a session's end.
  live: [],
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
  // Dated notes on the time charts (docs/timezone.md, "Annotations").
  annotations: [],
  // Custom funnels (docs/funnels.md): saved funnels and their question.
  funnels: [],
  // Goals and their conversions (docs/goals.md).
  goals: [],
  // Alert channels: app.ts hands its service's enqueueNotice to the alert rules (issue 27).
  'alert-channels': [],
  // Email reports (docs/reports.md): app.ts hands them the dashboard services and the mail outbox.
  reports: [],
  // Alert rules (issue 27): no other module imports them; app.ts hands the channels' notify in.
  'alert-rules': [],
};

/**
 * What app.ts builds each module with (ADR 075): the modules whose parts (the services, stores and feeds
 * app.ts makes) each module's factories, route plugins and methods are handed in app.ts, closures included.
 * The wiring must be exactly this, and this and the imports together must run one way (no cycle). A module
 * that must hear of another's event subscribes to it (`onProjectChanged`, `onCommitted`, `onEnded`) rather
 * than being handed in.
 */
const WIRED: Record<string, readonly string[]> = {
  'project-access': [],
  'audit-log': ['project-access'],
  'event-store': [],
  sourcemaps: ['audit-log', 'project-access'],
  'ingest-log': ['event-store'],
  projects: ['audit-log', 'event-store', 'ingest-log', 'project-access', 'sourcemaps'],
  ingestion: ['event-store', 'ingest-log', 'project-access', 'sourcemaps'],
  live: ['auth', 'ingest-log', 'project-access'],
  'read-tokens': ['audit-log', 'projects'],
  annotations: ['audit-log', 'projects'],
  members: ['audit-log', 'live', 'mail', 'projects', 'reports'],
  'alert-channels': ['audit-log', 'mail', 'projects'],
  // The history's CSV reads the analytics service's pages (handed by app.ts).
  'event-export': ['analytics', 'event-store', 'projects'],
  analytics: ['event-store', 'projects'],
  'custom-events': ['event-store', 'projects'],
  funnels: ['audit-log', 'event-store', 'projects'],
  goals: ['audit-log', 'event-store', 'projects'],
  acquisition: ['event-store', 'projects'],
  incidents: ['audit-log', 'event-store', 'projects', 'sourcemaps'],
  wallets: ['event-store', 'projects'],
  reports: ['acquisition', 'analytics', 'incidents', 'mail', 'projects'],
  'alert-rules': ['alert-channels', 'event-store', 'incidents', 'projects'],
  health: ['alert-channels', 'event-store', 'ingest-log', 'mail'],
  auth: ['mail'],
  mail: [],
};

const COMPOSITION_ROOTS = [
  path.join(SRC, 'app.ts'),
  path.join(SRC, 'main.ts'),
  path.join(SRC, 'server.ts'),
  path.join(SRC, 'admin'),
];

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

/**
 * app.ts's wiring, module → modules it is handed: a part is a `const` of buildApp made by a function that
 * app.ts imports from a module (or by a const that is); a call of a module's function (a factory, a route
 * plugin given to `register`, a part's method) naming another module's part anywhere in its arguments,
 * closures included, wires the first module with the second. Consts that are no part (`ruleChannels`) are
 * followed to the parts they name.
 */
function wiringOf(appFile: string): Map<string, Set<string>> {
  const source = ts.createSourceFile(appFile, readFileSync(appFile, 'utf8'), ts.ScriptTarget.Latest, true);
  const importedFrom = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    // Resolved from src/, where app.ts lives (ARCHITECTURE_APP_TS may name a copy elsewhere).
    const owner = moduleOf(path.resolve(SRC, statement.moduleSpecifier.text));
    const bindings = statement.importClause?.namedBindings;
    if (owner && bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) importedFrom.set(element.name.text, owner);
    }
  }
  const build = source.statements.find(
    (statement): statement is ts.FunctionDeclaration =>
      ts.isFunctionDeclaration(statement) && statement.name?.text === 'buildApp',
  );
  const consts = new Map<string, ts.Expression>();
  for (const statement of build?.body?.statements ?? []) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer) {
        consts.set(declaration.name.text, declaration.initializer);
      }
    }
  }
  const unwrap = (node: ts.Expression): ts.Expression =>
    ts.isAwaitExpression(node) || ts.isParenthesizedExpression(node) ? unwrap(node.expression) : node;
  const partModule = new Map<string, string>();
  const moduleOfName = (name: string, seen: Set<string> = new Set()): string | undefined => {
    if (importedFrom.has(name)) return importedFrom.get(name);
    if (partModule.has(name)) return partModule.get(name);
    const initializer = consts.get(name);
    if (!initializer || seen.has(name)) return undefined;
    seen.add(name);
    const found = moduleOfExpression(initializer, seen);
    if (found) partModule.set(name, found);
    return found;
  };
  /**
   * A factory's call (`createX(…)`, awaited or not), either side of a choice between two of one module's
   * (`url ? clickHouseEventStore(…) : duckDbEventStore(…)`), the fallback of `??`, or a part's name.
   */
  function moduleOfExpression(expression: ts.Expression, seen: Set<string>): string | undefined {
    const head = unwrap(expression);
    if (ts.isIdentifier(head)) return moduleOfName(head.text, seen);
    if (ts.isCallExpression(head) && ts.isIdentifier(head.expression)) {
      return moduleOfName(head.expression.text, seen);
    }
    if (ts.isConditionalExpression(head)) {
      const sides = new Set([head.whenTrue, head.whenFalse].map((side) => moduleOfExpression(side, seen)));
      return sides.size === 1 ? [...sides][0] : undefined;
    }
    if (ts.isBinaryExpression(head) && head.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
      return moduleOfExpression(head.right, seen);
    }
    return undefined;
  }
  for (const name of consts.keys()) moduleOfName(name);

  /** The modules of the parts a node names, following consts that are no part. */
  const partsNamed = (node: ts.Node, seen: Set<string> = new Set()): Set<string> => {
    const named = new Set<string>();
    const visit = (child: ts.Node) => {
      if (ts.isIdentifier(child) && !seen.has(child.text)) {
        const parent = child.parent;
        const isPropertyName =
          (ts.isPropertyAccessExpression(parent) && parent.name === child) ||
          (ts.isPropertyAssignment(parent) && parent.name === child);
        if (!isPropertyName) {
          seen.add(child.text);
          const owner = partModule.get(child.text);
          if (owner) named.add(owner);
          else if (consts.has(child.text)) {
            for (const other of partsNamed(consts.get(child.text) as ts.Node, seen)) named.add(other);
          }
        }
      }
      ts.forEachChild(child, visit);
    };
    visit(node);
    return named;
  };
  const rootOf = (node: ts.Expression): ts.Expression =>
    ts.isPropertyAccessExpression(node) ? rootOf(node.expression) : node;

  const wiring = new Map<string, Set<string>>();
  const wire = (from: string | undefined, args: readonly ts.Node[]) => {
    if (!from) return;
    const targets = wiring.get(from) ?? new Set<string>();
    for (const arg of args) for (const to of partsNamed(arg)) if (to !== from) targets.add(to);
    wiring.set(from, targets);
  };
  const visitCalls = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const [first, ...rest] = node.arguments;
      if (ts.isIdentifier(callee)) {
        // A module's factory or function: createProjectService({ … }), legacyIngestionGraphql({ … }).
        wire(importedFrom.get(callee.text), node.arguments);
      } else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'register' && first) {
        // A module's route plugin and its options: app.register(eventRoutes, { … }).
        if (ts.isIdentifier(first)) wire(importedFrom.get(first.text), rest);
      } else if (ts.isPropertyAccessExpression(callee)) {
        // A part's method handed another part: members.x(() => live.y()).
        const root = rootOf(callee);
        if (ts.isIdentifier(root)) wire(partModule.get(root.text), node.arguments);
      }
    }
    ts.forEachChild(node, visitCalls);
  };
  if (build?.body) visitCalls(build.body);
  for (const [from, targets] of wiring) if (targets.size === 0) wiring.delete(from);
  return wiring;
}

/** Each cycle of a graph, as `a -> b -> a`. */
function cyclesOf(edges: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const visit = (node: string, trail: string[]) => {
    if (trail.includes(node)) {
      cycles.add([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
  };
  for (const node of edges.keys()) visit(node, []);
  return [...cycles];
}

/** ARCHITECTURE_APP_TS checks another app.ts (shown failing on the wiring of before ADR 075). */
const APP_FILE = process.env.ARCHITECTURE_APP_TS
  ? path.resolve(process.env.ARCHITECTURE_APP_TS)
  : path.join(SRC, 'app.ts');

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

  it("loads DuckDB's binding only through binding.ts, after the allocator's settings (ADR 163)", () => {
    // A value import loads the native library, whose allocator reads its settings once: types may come directly.
    const valueImport = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^;']*?\sfrom\s+)?'@duckdb\/node-api'/;
    const bench = path.join(SRC, '..', 'bench');
    const loaders = [...files, ...sourceFiles(bench)]
      .filter((file) => valueImport.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(path.join(SRC, '..'), file));
    expect(loaders).toEqual(['src/modules/event-store/duckdb/binding.ts']);
    const binding = readFileSync(path.join(DUCKDB_ADAPTER, 'binding.ts'), 'utf8');
    expect(binding.indexOf("import './allocator.ts'")).toBeGreaterThan(-1);
    expect(binding.indexOf("import './allocator.ts'")).toBeLessThan(binding.indexOf("'@duckdb/node-api'"));
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
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('wires the modules in app.ts exactly as WIRED declares (closures included)', () => {
    const wiring = wiringOf(APP_FILE);
    const shownWiring = Object.fromEntries(
      [...wiring].map(([from, targets]) => [from, [...targets].sort()] as const).sort(),
    );
    const declared = Object.fromEntries(
      Object.entries(WIRED)
        .filter(([, targets]) => targets.length > 0)
        .map(([from, targets]) => [from, [...targets].sort()] as const)
        .sort(),
    );
    expect(shownWiring).toEqual(declared);
  });

  it('has no cycle in the wiring of app.ts, nor in it and the imports together', () => {
    const wiring = wiringOf(APP_FILE);
    expect(cyclesOf(wiring)).toEqual([]);
    const edges = new Map<string, Set<string>>();
    for (const [from, targets] of Object.entries(WIRED)) edges.set(from, new Set(targets));
    for (const { from, target } of imports) {
      const a = moduleOf(from);
      const b = target && moduleOf(target);
      if (a && b && a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
    expect(cyclesOf(edges)).toEqual([]);
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
