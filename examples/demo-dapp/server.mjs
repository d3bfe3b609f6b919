#!/usr/bin/env node
// `npm run demo-dapp`: a local chain, a demo dapp page with the Polyflow snippet, and a test wallet.
// Configuration: environment variables, or flags when run as `node examples/demo-dapp/server.mjs --…`
// (npm swallows flags given to `npm run demo-dapp`); flags win over the environment.
//   --polyflow-url / POLYFLOW_URL        Polyflow server (default http://localhost:3000)
//   --key / POLYFLOW_API_KEY             project API key (or open the page with ?key=…)
//   --port / DEMO_PORT                   page port (default 5173), --host / DEMO_HOST (default 127.0.0.1)
//   --anvil-port / ANVIL_PORT            anvil port (default 8545, or any free port if 8545 is taken)
//   --rpc-url / ANVIL_RPC_URL            use this running node instead of starting anvil
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { startDemoDapp } from './src/demo-server.mjs';

const { values: flags } = parseArgs({
  options: {
    'polyflow-url': { type: 'string' },
    key: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'anvil-port': { type: 'string' },
    'rpc-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (flags.help) {
  console.log(
    'Usage: npm run demo-dapp -- [--polyflow-url URL] [--key API_KEY] [--port 5173] [--anvil-port 8545]',
  );
  process.exit(0);
}

function portFrom(text, name, fallback) {
  if (text === undefined || text === '') return fallback;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`${name} must be a port number (0-65535), got "${text}"`);
    process.exit(1);
  }
  return port;
}

function isPortFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const polyflowUrl = (flags['polyflow-url'] ?? process.env.POLYFLOW_URL ?? 'http://localhost:3000').replace(
  /\/+$/,
  '',
);
const apiKey = flags.key ?? process.env.POLYFLOW_API_KEY ?? '';
const port = portFrom(flags.port ?? process.env.DEMO_PORT, 'DEMO_PORT', 5173);
const host = flags.host ?? process.env.DEMO_HOST ?? '127.0.0.1';
const rpcUrl = flags['rpc-url'] ?? process.env.ANVIL_RPC_URL;
const anvilPortSetting = flags['anvil-port'] ?? process.env.ANVIL_PORT;
let anvilPort = portFrom(anvilPortSetting, 'ANVIL_PORT', 8545);
if (!rpcUrl && anvilPortSetting === undefined && !(await isPortFree(anvilPort))) anvilPort = 0;

let demo;
try {
  demo = await startDemoDapp({ polyflowUrl, apiKey, host, port, rpcUrl, anvilPort });
} catch (error) {
  if (error?.code === 'EADDRINUSE')
    console.error(`Port ${port} is taken: set DEMO_PORT (or --port) to another one.`);
  else console.error(`The demo dapp could not start: ${error?.message ?? error}`);
  process.exit(1);
}

const pageUrl = apiKey ? demo.url : `${demo.url}/?key=YOUR_API_KEY`;
// With a key given, the project has one already: only the whitelist and the test remain to do.
const steps = [
  ...(apiKey ? [] : ["In the Polyflow console, open your project's SDK screen, create an API key."]),
  `Whitelist the domain localhost on ${apiKey ? "your project's SDK screen (if it is not there yet)" : 'the same screen'}.`,
  'On the same screen, "Test SDK Integration" → Start test (it counts events from then on).',
  apiKey ? `Open ${pageUrl}` : `Open ${pageUrl}  (or restart with POLYFLOW_API_KEY=…)`,
  'Press Connect, approve in the test wallet, then try the other buttons: the test card shows them arriving.',
];
console.log(`
  Polyflow demo dapp
  ──────────────────
  Page          ${demo.url}
  Chain         ${demo.rpcUrl} (chain id ${demo.chainId}, proxied to the page at /rpc)
  DemoStore     ${demo.contractAddress}  (setValue(0) reverts)
  Test wallet   ${demo.accounts[0]} (anvil dev account #0)
  Polyflow      ${polyflowUrl}  (the page loads ${polyflowUrl}/sdk.js)

  To see your first events:
${steps.map((step, index) => `   ${index + 1}. ${step}`).join('\n')}

  Ctrl+C stops the page and the chain.
`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await demo.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
