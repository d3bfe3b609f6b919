import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The three small dapps of `e2e/dapps/`, each on the library most dapps use. */
export const DAPPS = ['ethers', 'viem', 'wagmi'] as const;
export type DappName = (typeof DAPPS)[number];

/**
 * Where the Polyflow snippet goes: `first` as the README says (a plain script tag before the dapp's own
 * scripts), `late` after the dapp's module ran (as an `async` tag that loads last would), `none` without it.
 */
export type LoadOrder = 'first' | 'late' | 'none';

const entries: Record<DappName, string> = {
  ethers: 'ethers-dapp.ts',
  viem: 'viem-dapp.ts',
  wagmi: 'wagmi-dapp.tsx',
};
const dappsDir = fileURLToPath(new URL('../dapps/', import.meta.url));
const walletScript = fileURLToPath(new URL('../../examples/demo-dapp/public/wallet.js', import.meta.url));

/** Builds the three dapps from source, once per spec file (esbuild: a second or two each). */
export async function buildDapps(): Promise<Record<DappName, string>> {
  const bundles = {} as Record<DappName, string>;
  await Promise.all(
    DAPPS.map(async (name) => {
      const out = await build({
        entryPoints: [dappsDir + entries[name]],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        jsx: 'automatic',
        define: { 'process.env.NODE_ENV': '"production"' },
        minify: true,
        write: false,
        logLevel: 'silent',
      });
      bundles[name] = out.outputFiles[0]?.text ?? '';
    }),
  );
  return bundles;
}

export interface DappSettings {
  rpcUrl: string;
  chainId: number;
  accounts: `0x${string}`[];
  contractAddress: `0x${string}`;
  polyflowUrl: string;
}

export interface DappServer {
  /** The page of one dapp with the snippet for this project key in the given order. */
  url(dapp: DappName, order: LoadOrder, apiKey?: string): string;
  close(): Promise<void>;
}

const attr = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(dapp: DappName, order: LoadOrder, apiKey: string, settings: DappSettings, origin: string) {
  const config = { ...settings, rpcUrl: `${origin}/rpc` };
  const sdk = `src="${attr(settings.polyflowUrl)}/sdk.js" data-api-key="${attr(apiKey)}" data-host="${attr(settings.polyflowUrl)}"`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${dapp} test dapp</title>
<script id="demo-config" type="application/json">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script src="/wallet.js"></script>
${order === 'first' ? `<script ${sdk}></script>` : ''}
<script type="module" src="/${dapp}.js"></script>
${order === 'late' ? `<script defer ${sdk}></script>` : ''}
</head>
<body><div id="root"></div></body>
</html>`;
}

/** Serves the dapps' pages, their bundles, the test wallet and `/rpc` (a same-origin proxy to anvil). */
export async function startDappServer(
  settings: DappSettings,
  bundles: Record<DappName, string>,
): Promise<DappServer> {
  let origin = '';
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/rpc' && request.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(settings.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      response.writeHead(upstream.status, { 'content-type': 'application/json' });
      response.end(Buffer.from(await upstream.arrayBuffer()));
      return;
    }
    const script = url.pathname.slice(1).replace(/\.js$/, '');
    if (url.pathname === '/wallet.js' || script in bundles) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(url.pathname === '/wallet.js' ? readFileSync(walletScript) : bundles[script as DappName]);
      return;
    }
    const dapp = url.searchParams.get('dapp') as DappName;
    const order = (url.searchParams.get('order') ?? 'none') as LoadOrder;
    if (!DAPPS.includes(dapp)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page(dapp, order, url.searchParams.get('key') ?? '', settings, origin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: (dapp, order, apiKey = '') =>
      `${origin}/?dapp=${dapp}&order=${order}&key=${encodeURIComponent(apiKey)}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
