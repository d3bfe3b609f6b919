// The demo dapp's web server: serves the page (with the Polyflow snippet filled in), its assets,
// and `/rpc`, a same-origin proxy to the local anvil node so the in-page test wallet has no CORS issue.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { rpcCall, startAnvil } from './anvil.mjs';
import { deployDemoStore } from './deploy.mjs';

const publicDir = new URL('../public/', import.meta.url);
const ASSETS = {
  '/assets/app.js': 'text/javascript; charset=utf-8',
  '/assets/wallet.js': 'text/javascript; charset=utf-8',
  '/assets/style.css': 'text/css; charset=utf-8',
};
const MAX_RPC_BODY = 1024 * 1024;

const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
// Inside <script type="application/json">, only "</" could end the element early.
const jsonForScript = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

function readBody(request, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * The SDK snippet exactly as a newcomer pastes it. `?key=` on the page URL overrides the configured
 * key; `?sdk=off` leaves the snippet out (tests load another SDK build themselves).
 */
function sdkSnippet(polyflowUrl, apiKey, sdkMode) {
  if (sdkMode === 'off' || !apiKey) return '';
  return `<script src="${escapeHtml(polyflowUrl)}/sdk.js" data-api-key="${escapeHtml(apiKey)}" data-host="${escapeHtml(polyflowUrl)}"></script>`;
}

function renderPage(template, settings, url) {
  const apiKey = url.searchParams.get('key') || settings.apiKey || '';
  const sdkMode = url.searchParams.get('sdk') === 'off' ? 'off' : 'on';
  const config = {
    polyflowUrl: settings.polyflowUrl,
    hasApiKey: Boolean(apiKey),
    sdk: sdkMode,
    chainId: settings.chainId,
    contractAddress: settings.contractAddress,
    accounts: settings.accounts,
  };
  return template
    .replace(
      '<!--DEMO_CONFIG-->',
      `<script id="demo-config" type="application/json">${jsonForScript(config)}</script>`,
    )
    .replace('<!--POLYFLOW_SNIPPET-->', sdkSnippet(settings.polyflowUrl, apiKey, sdkMode));
}

async function proxyRpc(request, response, rpcUrl) {
  try {
    const body = await readBody(request, MAX_RPC_BODY);
    const upstream = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    response.writeHead(upstream.status, { 'content-type': 'application/json' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  } catch (error) {
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32603, message: `chain unreachable: ${error.message}` },
      }),
    );
  }
}

function listen(server, host, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * Starts the demo: a chain (its own anvil unless `rpcUrl` points at one), the DemoStore contract,
 * and the web server. Resolves with where everything is and a `close()` that stops what it started.
 */
export async function startDemoDapp(options) {
  const { polyflowUrl, apiKey = '', host = '127.0.0.1', port = 5173, publicHost = 'localhost' } = options;
  const anvil = options.rpcUrl ? null : await startAnvil({ port: options.anvilPort ?? 8545 });
  const rpcUrl = options.rpcUrl ?? anvil.rpcUrl;
  try {
    const chainId = Number.parseInt(await rpcCall(rpcUrl, 'eth_chainId'), 16);
    const accounts = (await rpcCall(rpcUrl, 'eth_accounts')).slice(0, 2);
    if (accounts.length < 2) throw new Error(`${rpcUrl} has fewer than two unlocked accounts`);
    const contractAddress = await deployDemoStore(rpcUrl, accounts[0]);
    const settings = {
      polyflowUrl: polyflowUrl.replace(/\/+$/, ''),
      apiKey,
      chainId,
      contractAddress,
      accounts,
    };
    const template = readFileSync(new URL('index.html', publicDir), 'utf8');

    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://demo.invalid');
      if (url.pathname === '/rpc' && request.method === 'POST')
        return void proxyRpc(request, response, rpcUrl);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD, POST' }).end();
        return;
      }
      const assetType = ASSETS[url.pathname];
      if (assetType) {
        response.writeHead(200, { 'content-type': assetType, 'cache-control': 'no-store' });
        response.end(readFileSync(new URL(`.${url.pathname.slice('/assets'.length)}`, publicDir)));
        return;
      }
      if (url.pathname === '/favicon.ico') return void response.writeHead(204).end();
      // Every other path is the single-page app, so its client-side routes survive a reload.
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(renderPage(template, settings, url));
    });
    const boundPort = await listen(server, host, port);
    return {
      url: `http://${publicHost}:${boundPort}`,
      port: boundPort,
      rpcUrl,
      chainId,
      contractAddress,
      accounts,
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(() => resolve()));
        await anvil?.stop();
      },
    };
  } catch (error) {
    await anvil?.stop();
    throw error;
  }
}
