import type { Core, EventBody, SignatureBody, TxBody, Wallet } from './types.ts';
import { code, dec, hex, noop, num, type Rec, rpcError, sleep, uid } from './util.ts';

/** What the request wrapper calls when the dapp's wallet call settles. */
export interface CallHooks {
  ok(value: unknown): void;
  fail(error: unknown): void;
}

/** Receipt polls before the SDK gives up: back-off 1 s × 1.5 up to 10 s, so about 20 minutes. */
export const MAX_POLLS = 130;
/** Polls in a row where the node does not know our hash (about a minute) before it counts as dropped. */
export const DROP_AFTER_MISSES = 10;

const FILLED = ['nonce', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value'] as const;

/** Completes the fields the dapp left to the wallet (nonce, gas) from the transaction as the node knows it. */
function fill(tx: TxBody, known: Rec): void {
  for (const field of FILLED) tx[field] ??= dec(known[field]);
  tx.gasLimit ??= dec(known.gas);
  tx.from ??= hex(known.from, 42);
  tx.to ??= hex(known.to, 42);
  tx.chainId ??= num(known.chainId);
}

/**
 * Follows a submitted transaction through the original (unwrapped) request until it is mined or lost:
 * receipt status 1 → confirmed, 0 → reverted. Replaced: the account's mined nonce (`eth_getTransactionCount`
 * at `latest`) went past ours and our hash still has no receipt after that, so another transaction with our
 * nonce was mined (a speed-up or cancel). Dropped: the node has not known our hash for ten polls in a
 * row (about a minute) while the nonce has not passed ours.
 */
async function follow(w: Wallet, tx: TxBody, send: Stages) {
  const ask = (method: string, params: unknown[]) => w.q(method, params).catch(noop) as Promise<Rec>;
  let delay = 1000;
  let nonceMined = false;
  let misses = 0;
  let known = await ask('eth_getTransactionByHash', [tx.hash]);
  if (known) fill(tx, known);
  send('submitted');
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    const receipt = await ask('eth_getTransactionReceipt', [tx.hash]);
    if (receipt) {
      return send(Number(receipt.status ?? 1) === 0 ? 'reverted' : 'confirmed', {
        gasUsed: dec(receipt.gasUsed),
        effectiveGasPrice: dec(receipt.effectiveGasPrice),
        blockNumber: dec(receipt.blockNumber),
      });
    }
    // The nonce had passed ours before this receipt check came back empty: ours can no longer be mined.
    if (nonceMined) return send('replaced');
    known = await ask('eth_getTransactionByHash', [tx.hash]);
    if (known) fill(tx, known);
    misses = known ? 0 : misses + 1;
    if (misses >= DROP_AFTER_MISSES) return send('dropped');
    if (tx.from && tx.nonce) {
      const mined = dec(await ask('eth_getTransactionCount', [tx.from, 'latest']));
      // Check the receipt again at once: ours may have been mined between the two calls.
      if (mined && BigInt(mined) > BigInt(tx.nonce)) nonceMined = true;
    }
    if (!nonceMined) {
      await sleep(delay);
      delay = Math.min(delay * 1.5, 10_000);
    }
  }
}

type Stages = (stage: TxBody['stage'] | SignatureBody['stage'], extra?: Partial<TxBody>) => void;

/** Reports `requested` now; the returned function reports the later stages with the same fields. */
function stages(core: Core, w: Wallet, body: TxBody | SignatureBody): Stages {
  const send: Stages = (stage, extra) => core.emit({ ...body, ...extra, stage } as EventBody, w);
  send('requested');
  return send;
}

/** 4001 is the user saying no; anything else is a failure. The dapp still gets its own error object. */
const failed = (send: Stages) => (error: unknown) =>
  send(code(error) === 4001 ? 'rejected' : 'failed', { error: rpcError(error) });

/** `eth_sendTransaction`: reports `requested` now and returns the hooks for what the wallet answers. */
export function trackTransaction(core: Core, w: Wallet, params: unknown): CallHooks {
  const request = ((Array.isArray(params) && params[0]) || {}) as Rec;
  const data = String(request.data ?? request.input ?? '');
  const tx: TxBody = {
    type: 'tx',
    txId: uid(),
    stage: 'requested',
    kind: data.length > 2 ? 'contract' : 'coin',
    selector: hex(data.slice(0, 10), 10),
    from: hex(request.from, 42) ?? w.a,
    to: hex(request.to, 42),
    chainId: num(request.chainId) ?? w.c,
    gasLimit: dec(request.gasLimit),
  };
  fill(tx, request);
  const send = stages(core, w, tx);
  return {
    ok(hash) {
      tx.hash = hex(hash, 66);
      if (tx.hash) follow(w, tx, send).catch(noop);
    },
    fail: failed(send),
  };
}

/** `personal_sign` / `eth_signTypedData_v4`: never records the message or the signature, only the outcome. */
export function trackSignature(core: Core, w: Wallet, method: SignatureBody['method']): CallHooks {
  const send = stages(core, w, { type: 'signature', signatureId: uid(), method, stage: 'requested' });
  return { ok: () => send('signed'), fail: failed(send) };
}
