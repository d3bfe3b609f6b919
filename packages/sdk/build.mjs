// Builds what the npm package ships: dist/polyflow.esm.js (for bundlers), dist/polyflow.iife.js (the script
// tag, also served as `/sdk.js`) and dist/index.d.ts. `--size` prints each bundle's minified + gzip size and
// fails over the budget.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { minify } from 'terser';
import ts from 'typescript';

/** DESIGN.md budget for the SDK's core, minified + gzip. */
export const BUDGET_BYTES = 4096;
/** Budget of the `track`/`identify` add-on, loaded on their first call (ADR 068). */
export const ADDON_BUDGET_BYTES = 1024;
const root = dirname(fileURLToPath(import.meta.url));

/** How each core build loads the add-on (src/load-addon.ts, ADR 068): the ESM build imports the add-on file beside it. */
const loader = (expression) => ({
  name: 'addon-loader',
  setup(b) {
    b.onResolve({ filter: /\/load-addon\.ts$/ }, () => ({ path: 'load-addon', namespace: 'addon-loader' }));
    b.onLoad({ filter: /.*/, namespace: 'addon-loader' }, () => ({
      contents: `export const loadAddon = (host) => import(${expression});`,
      loader: 'js',
    }));
  },
});

const bundles = [
  {
    file: 'polyflow.esm.js',
    entry: 'src/index.ts',
    format: 'esm',
    plugins: [loader("'./polyflow-addon.esm.js'")],
    external: ['./polyflow-addon.esm.js'],
  },
  {
    file: 'polyflow.iife.js',
    entry: 'src/script.ts',
    format: 'iife',
    plugins: [loader("host + '/sdk-addon.js'")],
  },
  // One file for both: the ESM build imports it by its name, the server serves it as `/sdk-addon.js`.
  { file: 'polyflow-addon.esm.js', entry: 'src/addon.ts', format: 'esm', budget: ADDON_BUDGET_BYTES },
];

mkdirSync(join(root, 'dist'), { recursive: true });

/**
 * Writes a dist file whole or not at all (a temporary file renamed over it): `npm test` runs the SDK's size
 * and pack tests, which build again, while the Playwright journeys' servers serve dist/ to their pages.
 */
function writeDist(file, text) {
  const temporary = join(root, 'dist', `.${file}.${process.pid}.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, join(root, 'dist', file));
}

const results = [];
for (const { file, entry, format, plugins = [], external = [], budget = BUDGET_BYTES } of bundles) {
  const out = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    format,
    target: 'es2021',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    plugins,
    external,
  });
  // esbuild bundles; terser then wins about 5 % gzip over esbuild's minifier. One pass with hoisted function
  // declarations measured smallest (gzip is not monotonic in the passes: 3 passes gave 55 B more).
  const { code } = await minify(out.outputFiles[0].text, {
    compress: { passes: 1, hoist_funs: true },
    mangle: true,
    module: format === 'esm',
  });
  writeDist(file, code);
  results.push({
    file,
    budget,
    minified: Buffer.byteLength(code),
    gzip: gzipSync(code, { level: 9 }).length,
  });
}

writeDist('index.d.ts', declarations());

/**
 * The public types, from `src/index.ts` alone. The published package has no dependencies, so its
 * declarations must not import anything (the contracts package, another SDK file): when an exported
 * signature starts to need another file's type, export or inline that type in index.ts.
 */
function declarations() {
  const entry = join(root, 'src', 'index.ts');
  const options = {
    target: ts.ScriptTarget.ES2021,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    strict: true,
    allowImportingTsExtensions: true,
    declaration: true,
    emitDeclarationOnly: true,
    stripInternal: true,
    skipLibCheck: true,
    types: [],
  };
  let text;
  const program = ts.createProgram([entry], options);
  const emitted = program.emit(undefined, (fileName, data) => {
    if (fileName.endsWith('/index.d.ts') && dirname(fileName) === join(root, 'src')) text = data;
  });
  const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (problems.length > 0 || text === undefined) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`SDK declarations failed:\n${ts.formatDiagnostics(problems, host)}`);
  }
  if (/^\s*(import|export \* from|export \{[^}]*\} from)\b/m.test(text) || /import\(/.test(text)) {
    throw new Error(`dist/index.d.ts must be self-contained, but it refers to other files:\n${text}`);
  }
  return `// @polyflow/sdk public types (generated from src/index.ts by build.mjs).\n${text}`;
}

if (process.argv.includes('--size')) {
  let over = false;
  for (const { file, budget, minified, gzip } of results) {
    // Each core bundle holds the whole SDK but the add-on, so each must fit the budget on its own.
    over ||= gzip > budget;
    console.log(`${file}: ${minified} bytes minified, ${gzip} bytes minified+gzip (budget ${budget})`);
  }
  if (over) {
    console.error('SDK over its size budget');
    process.exit(1);
  }
} else {
  for (const { file } of results) console.log(`built dist/${file}`);
  console.log('built dist/index.d.ts');
}
