// Starts a local anvil chain from the npm package @foundry-rs/anvil, which ships the real binary in
// a per-platform package (e.g. @foundry-rs/anvil-linux-amd64). We spawn that binary directly rather
// than the package's `bin.mjs` wrapper, so killing our child really stops the chain.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

const require = createRequire(import.meta.url);
const ARCH_NAMES = { x64: 'amd64', arm64: 'arm64' };

/** Absolute path of the anvil executable for this platform, or the wrapper script as a fallback. */
export function anvilCommand() {
  const arch = ARCH_NAMES[process.arch];
  const binary = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  if (arch) {
    try {
      const path = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${binary}`);
      if (existsSync(path)) return { command: path, args: [] };
    } catch {
      // platform package missing: fall back to the wrapper below
    }
  }
  return { command: process.execPath, args: [require.resolve('@foundry-rs/anvil/bin.mjs')] };
}

/** One JSON-RPC call over HTTP; throws with the node's message on an RPC error. */
export async function rpcCall(rpcUrl, method, params = []) {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await response.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function waitUntilAnswering(rpcUrl, child, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`anvil exited with code ${child.exitCode}:\n${output.join('')}`);
    try {
      return await rpcCall(rpcUrl, 'eth_chainId');
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`anvil did not answer on ${rpcUrl} within ${timeoutMs} ms:\n${output.join('')}`);
}

/** A port that was free on 127.0.0.1 a moment ago (anvil cannot report the port it picked for 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts anvil on 127.0.0.1:`port` (0: any free port; automine, 10 funded and unlocked dev accounts).
 * With `blockTime` (seconds) it also mines a block at that interval, as a live chain does, besides one per
 * transaction. Resolves once it answers JSON-RPC; `stop()` ends it.
 */
export async function startAnvil({
  port: requestedPort = 0,
  chainId = 31337,
  timeoutMs = 15_000,
  blockTime = 0,
} = {}) {
  const port = requestedPort || (await freePort());
  const { command, args } = anvilCommand();
  const interval = blockTime > 0 ? ['--mixed-mining', '--block-time', String(blockTime)] : [];
  const child = spawn(
    command,
    [
      ...args,
      ...interval,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--chain-id',
      String(chainId),
      '--silent',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TARGET_TOOL: 'anvil' } },
  );
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk) => output.push(chunk.toString()));
  const rpcUrl = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(rpcUrl, child, output, timeoutMs);
  return {
    rpcUrl,
    port,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 2000).unref();
      }),
  };
}
