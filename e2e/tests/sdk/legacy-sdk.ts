import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import { build, type Plugin } from 'esbuild';

// The published SDK (`@polyflow/sdk@1.0.25`, installed from npm under the alias `polyflow-sdk-legacy`, since
// `@polyflow/sdk` is now this repository's own SDK workspace) ships ES modules that import npm packages,
// so a browser needs a bundle: built once per worker with esbuild, exactly from the installed files.
const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('polyflow-sdk-legacy/package.json'));
const CHAINLIST_URL =
  'https://raw.githubusercontent.com/0xpolyflow/polyflow-sdk/master/resources/chainlist.json';

// Its HTTP provider (for WalletConnect/Coinbase relays, unused with an injected wallet) requires Node's
// http modules at load time; in a browser bundle they are empty objects. `buffer` resolves to the npm
// package of that name, and the global `Buffer` some of its dependencies expect is defined from it.
const nodeBuiltinsAsEmpty: Plugin = {
  name: 'node-builtins-as-empty',
  setup(builder) {
    builder.onResolve({ filter: /^(http|https|zlib|util|url|stream|crypto)$/ }, (args) => ({
      path: args.path,
      namespace: 'empty',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({
      contents: 'module.exports = {}',
      loader: 'js',
    }));
  },
};

let bundle: Promise<string> | undefined;

/** The published SDK as one browser script defining `window.PolyflowLegacy.attach`. */
export function legacySdkBundle(): Promise<string> {
  bundle ??= build({
    stdin: {
      contents:
        "import { Buffer } from 'buffer'; globalThis.Buffer ??= Buffer; export { attach } from 'polyflow-sdk-legacy';",
      resolveDir: packageDir,
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    globalName: 'PolyflowLegacy',
    platform: 'browser',
    define: { global: 'globalThis' },
    plugins: [nodeBuiltinsAsEmpty],
    write: false,
    logLevel: 'error',
  }).then((result) => result.outputFiles[0]?.text ?? '');
  return bundle;
}

/**
 * Runs the published SDK in the page, as its README says (`attach(KEY, { gqlApi })`), after the page's
 * wallet is installed (the SDK reads `window.ethereum` when its module loads). Its start-up fetch of a
 * chain list from GitHub is answered with the copy shipped in the package: tests use no internet.
 */
export async function attachLegacySdk(page: Page, apiKey: string, gqlApi: string): Promise<void> {
  const chainlist = readFileSync(join(packageDir, 'resources', 'chainlist.json'), 'utf8');
  await page.route(CHAINLIST_URL, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: chainlist }),
  );
  await page.addScriptTag({ content: await legacySdkBundle() });
  await page.evaluate(
    async ({ key, api }) => {
      const legacy = (
        window as unknown as { PolyflowLegacy: { attach(k: string, o: object): Promise<unknown> } }
      ).PolyflowLegacy;
      await legacy.attach(key, { gqlApi: api });
    },
    { key: apiKey, api: gqlApi },
  );
}
