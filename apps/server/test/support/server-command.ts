import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const serverRoot = path.resolve(import.meta.dirname, '../..');

const entries = {
  main: { source: 'src/main.ts', built: 'dist/main.js' },
  admin: { source: 'src/admin/cli.ts', built: 'dist/admin.js' },
} as const;

/**
 * The node arguments that run the server (`main`) or the admin command line (`admin`) as a process of its
 * own, with absolute paths (any cwd will do).
 *
 * By default the TypeScript source through tsx, so a test always runs the code as it is now. With
 * POLYFLOW_TEST_BUILT=1 (`npm test` sets it right after `npm run build`) the built `dist/main.js` and
 * `dist/admin.js`, as `npm start` and an operator run them: the same code without compiling it again in every
 * process (about 1.5 s of CPU per start). A build older than any source file is refused rather than tested.
 */
export function serverCommand(entry: keyof typeof entries, ...args: string[]): string[] {
  const { source, built } = entries[entry];
  if (process.env.POLYFLOW_TEST_BUILT !== '1') {
    return ['--import', 'tsx', path.join(serverRoot, source), ...args];
  }
  const builtFile = path.join(serverRoot, built);
  if (!existsSync(builtFile)) {
    throw new Error(`POLYFLOW_TEST_BUILT=1 but ${built} is missing: run \`npm run build\` first.`);
  }
  const builtAt = statSync(builtFile).mtimeMs;
  const newer = newestSource(builtAt);
  if (newer) {
    throw new Error(
      `POLYFLOW_TEST_BUILT=1 but ${newer} changed after ${built} was built: run \`npm run build\` again (or unset it).`,
    );
  }
  return [builtFile, ...args];
}

/** A source file (the server's src or a bundled workspace package) modified after `builtAt`, if any. */
function newestSource(builtAt: number): string | undefined {
  const roots = [path.join(serverRoot, 'src'), path.resolve(serverRoot, '../../packages/contracts/src')];
  const pending = roots.filter((root) => existsSync(root));
  while (pending.length > 0) {
    const directory = pending.pop() as string;
    for (const item of readdirSync(directory, { withFileTypes: true })) {
      const itemPath = path.join(directory, item.name);
      if (item.isDirectory()) pending.push(itemPath);
      else if (statSync(itemPath).mtimeMs > builtAt) return path.relative(serverRoot, itemPath);
    }
  }
  return undefined;
}
