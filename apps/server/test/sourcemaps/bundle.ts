import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';

/** The dapp's code: `sendTokens` calls `formatAmount`, which throws for an order without an amount. */
export const WALLET_SOURCE = `export type Order = { token: string; amount?: number };

export function formatAmount(order: Order): string {
  if (order.amount === undefined) {
    throw new TypeError('amount missing for ' + order.token);
  }
  return order.amount.toFixed(2);
}

export function sendTokens(order: Order): string {
  return 'sending ' + formatAmount(order);
}
`;
/** The line of the throw in WALLET_SOURCE (1-based). */
export const THROW_LINE = 5;

/** Two builds of the same code: the second has more code before it, so every minified position moves. */
const ENTRY = [
  `import { sendTokens } from './wallet';
(globalThis as any).run = () => sendTokens({ token: 'USDC' });
`,
  `import { sendTokens } from './wallet';
const banner = ['polyflow', 'build', 'two'].map((word) => word.toUpperCase()).join('-');
(globalThis as any).banner = banner;
(globalThis as any).run = () => sendTokens({ token: 'USDC' });
`,
];

export type Bundle = { dir: string; assets: string; file: string; code: string; url: string };

/** A real minified esbuild bundle with its source map, written to `<root>/build-<n>/dist/assets`. */
export async function buildBundle(root: string, variant: 0 | 1): Promise<Bundle> {
  const dir = path.join(root, `build-${variant}`);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'wallet.ts'), WALLET_SOURCE);
  writeFileSync(path.join(dir, 'src', 'main.ts'), ENTRY[variant] as string);
  const assets = path.join(dir, 'dist', 'assets');
  const file = variant === 0 ? 'index-B8dJ0v3k.js' : 'index-Q2m7Lp9x.js';
  const result = await build({
    entryPoints: [path.join(dir, 'src', 'main.ts')],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    outfile: path.join(assets, file),
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(assets, { recursive: true });
  for (const output of result.outputFiles) writeFileSync(output.path, output.contents);
  const code = result.outputFiles.find((output) => output.path.endsWith('.js'))?.text ?? '';
  return { dir, assets, file, code, url: `https://app.example.com/assets/${file}` };
}

/** Runs the bundle as a page served it would (V8 names its frames by the script's URL); answers the error. */
export function throwIn(bundle: Bundle): { message: string; stack: string } {
  const context = vm.createContext({});
  vm.runInContext(bundle.code, context, { filename: bundle.url });
  try {
    (context as { run(): unknown }).run();
  } catch (error) {
    const { message, stack } = error as Error;
    // The page's own frames only, as a browser reports them (the test's frames below are Node's).
    const lines = String(stack).split('\n');
    return {
      message,
      stack: lines.filter((line, index) => index === 0 || line.includes(bundle.url)).join('\n'),
    };
  }
  throw new Error('the bundle did not throw');
}
