// Regenerates contracts/DemoStore.json (ABI + bytecode) from contracts/DemoStore.sol.
// The demo ships the compiled artifact so it needs no compiler at run time; run this only after
// editing the contract, with solc-js (the wasm compiler from npm) installed outside the project:
//   npm install --prefix /tmp/solc solc@0.8.28
//   SOLC_FROM=/tmp/solc/package.json node examples/demo-dapp/scripts/compile-contract.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const contractsDir = join(here, '..', 'contracts');
const require = createRequire(process.env.SOLC_FROM ?? import.meta.url);
const solc = require('solc');

const source = readFileSync(join(contractsDir, 'DemoStore.sol'), 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'DemoStore.sol': { content: source } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const compiled = output.contracts['DemoStore.sol'].DemoStore;
const artifact = {
  contractName: 'DemoStore',
  compiler: `solc ${solc.version()}`,
  abi: compiled.abi,
  bytecode: `0x${compiled.evm.bytecode.object}`,
};
writeFileSync(join(contractsDir, 'DemoStore.json'), `${JSON.stringify(artifact, null, 2)}\n`);
console.log(
  `Wrote contracts/DemoStore.json (${artifact.compiler}, ${artifact.bytecode.length / 2 - 1} bytes)`,
);
