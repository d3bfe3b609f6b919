export interface DemoDappOptions {
  /** Base URL of the Polyflow server that serves `/sdk.js` and receives events. */
  polyflowUrl: string;
  /** Project API key put in the snippet; the page's `?key=` overrides it. */
  apiKey?: string;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port to listen on (default 5173; 0 for any free port). */
  port?: number;
  /** Host name used in the returned `url` (default `localhost`). */
  publicHost?: string;
  /** Use this JSON-RPC node instead of starting anvil. */
  rpcUrl?: string;
  /** Port for the anvil the demo starts (default 8545). */
  anvilPort?: number;
}

export interface DemoDapp {
  url: string;
  port: number;
  rpcUrl: string;
  chainId: number;
  /** The DemoStore contract: `setValue(uint256)` reverts on 0 with "DemoStore: value must not be zero". */
  contractAddress: `0x${string}`;
  /** The test wallet's accounts: [0] signs, [1] receives the demo's ETH transfers. */
  accounts: `0x${string}`[];
  close(): Promise<void>;
}

export function startDemoDapp(options: DemoDappOptions): Promise<DemoDapp>;
