// What the three test dapps share: the page's settings and the way each reports what it saw.

/** Settings the test server writes into the page (the test wallet reads the same element). */
export interface DappConfig {
  chainId: number;
  accounts: `0x${string}`[];
  contractAddress: `0x${string}`;
  rpcUrl: string;
}

export const config: DappConfig = JSON.parse(document.getElementById('demo-config')?.textContent ?? '{}');

export const demoStoreAbi = [
  {
    type: 'function',
    name: 'setValue',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'newValue', type: 'uint256' }],
    outputs: [],
  },
  { type: 'function', name: 'value', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
] as const;

/** A reverting call given its own gas limit, so that the wallet sends it without estimating and it is mined. */
export const OWN_GAS_LIMIT = 200_000n;
export const TRANSFER_WEI = 10_000_000_000_000_000n;

/** What the dapp saw: its value, or the error's public fields (what a dapp shows or branches on). */
export type Outcome = { ok: unknown } | { error: Record<string, unknown> };

const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v)));

function errorFields(error: unknown): Record<string, unknown> {
  const e = error as Record<string, unknown>;
  return plain({
    name: e?.name,
    code: e?.code,
    message: e?.message,
    shortMessage: e?.shortMessage,
    reason: e?.reason,
    details: e?.details,
    causeCode: (e?.cause as Record<string, unknown> | undefined)?.code,
  }) as Record<string, unknown>;
}

export type Actions = Record<string, (...args: never[]) => Promise<unknown>>;

/** Exposes the dapp's actions to the test as `window.dapp`; each resolves with an {@link Outcome}. */
export function expose(actions: Actions) {
  const wrapped: Record<string, (...args: unknown[]) => Promise<Outcome>> = {};
  for (const [name, action] of Object.entries(actions)) {
    wrapped[name] = async (...args) => {
      try {
        return { ok: plain(await (action as (...a: unknown[]) => Promise<unknown>)(...args)) };
      } catch (error) {
        return { error: errorFields(error) };
      }
    };
  }
  (window as unknown as { dapp: unknown }).dapp = wrapped;
  document.body.dataset.ready = 'true';
}
