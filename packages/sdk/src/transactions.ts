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

const isReverted = (receipt: Rec) => Number(receipt.status ?? 1) === 0;

/**
 * Reports the receipt of `hash` (asked through the original request, else `known`) as `confirmed` or
 * `reverted` (status 0: the call failed on chain), with its gas; resolves to the receipt, if there is one.
 */
async function reportReceipt(w: Wallet, send: Stages, hash: unknown, known?: Rec) {
  const receipt = ((await w.q('eth_getTransactionReceipt', [hash])) || known) as Rec | undefined;
  if (receipt)
    send(isReverted(receipt) ? 'reverted' : 'confirmed', {
      hash: hex(hash, 66),
      gasUsed: dec(receipt.gasUsed),
      effectiveGasPrice: dec(receipt.effectiveGasPrice),
      blockNumber: dec(receipt.blockNumber),
    });
  return receipt;
}

/** Calls `step` until it says it is done: back-off 1 s × 1.5 up to 10 s, at most {@link MAX_POLLS} times. */
async function poll(step: () => Promise<unknown>) {
  for (let i = 0, delay = 1000; i < MAX_POLLS; i++) {
    if (await step()) return;
    await sleep(delay);
    delay = Math.min(delay * 1.5, 10_000);
  }
}

/**
 * Follows a submitted transaction through the original (unwrapped) request until it is mined or lost:
 * receipt status 1 → confirmed, 0 → reverted. Replaced: the account's mined nonce (`eth_getTransactionCount`
 * at `latest`) went past ours and our hash still has no receipt at the next check, so another transaction
 * with our nonce was mined (a speed-up or cancel). Dropped: the node has not known our hash for ten polls in
 * a row (about a minute) while the nonce has not passed ours. Each poll first asks the wallet's chain: on
 * another chain than the transaction's it reads nothing and forgets the misses and the nonce seen.
 */
export async function follow(w: Wallet, tx: TxBody, send: Stages) {
  let nonceMined = false;
  let misses = 0;
  const lookUp = async () => {
    const known = (await w.q('eth_getTransactionByHash', [tx.hash])) as Rec | undefined;
    if (known) fill(tx, known);
    return known;
  };
  // `submitted` has gone with the hash already (trackTransaction); what this fills goes with the next stage.
  await lookUp();
  await poll(async () => {
    // The wallet answers for the chain it is on now: while that is not ours, nothing is read or concluded and
    // what was seen is forgotten; polling goes on (the user may switch back).
    const chainId = num(await w.q('eth_chainId'));
    tx.chainId ??= chainId;
    if (chainId !== tx.chainId) {
      nonceMined = false;
      misses = 0;
      return;
    }
    if (await reportReceipt(w, send, tx.hash)) return true;
    // The nonce had passed ours before this receipt check came back empty: ours can no longer be mined.
    if (nonceMined) return send('replaced');
    misses = (await lookUp()) ? 0 : misses + 1;
    if (misses >= DROP_AFTER_MISSES) return send('dropped');
    const mined = tx.from && tx.nonce && dec(await w.q('eth_getTransactionCount', [tx.from, 'latest']));
    nonceMined = !!mined && BigInt(mined) > BigInt(tx.nonce as string);
  });
}

/** Reports a stage; `true` so that a polling step can end with it. */
export type Stages = (stage: TxBody['stage'] | SignatureBody['stage'], extra?: Partial<TxBody>) => true;

/** Reports `requested` now; the returned function reports the later stages with the same fields. */
function stages(core: Core, w: Wallet, body: TxBody | SignatureBody): Stages {
  const send: Stages = (stage, extra) => {
    core.emit({ ...body, ...extra, stage } as EventBody, w);
    return true;
  };
  send('requested');
  return send;
}

/** 4001 is the user saying no; anything else is a failure. The dapp still gets its own error object. */
const failed = (send: Stages) => (error: unknown) =>
  send(code(error) === 4001 ? 'rejected' : 'failed', { error: rpcError(error) });

/** The transaction the dapp asks for (`eth_sendTransaction` params, or one call of a batch) as a `requested` body. */
function txBody(w: Wallet, request: Rec, txId = uid()): TxBody {
  const data = String(request.data ?? request.input ?? '');
  const tx: TxBody = {
    type: 'tx',
    txId,
    stage: 'requested',
    kind: data.length > 2 ? 'contract' : 'coin',
    selector: hex(data.slice(0, 10), 10),
  };
  // What the dapp left out is the wallet's: its account and chain.
  fill(tx, { from: w.a, chainId: w.c, gas: request.gasLimit, ...request });
  return tx;
}

const first = (params: unknown): Rec => Object((params as Rec[] | undefined)?.[0]);

/**
 * `eth_sendTransaction` / `wallet_sendTransaction`, and `eth_estimateGas` when it fails (the dapp estimated
 * before sending and the call would revert: the user's transaction failed before submission). Reports
 * `requested` now and returns the hooks for what the wallet answers.
 */
export function trackTransaction(core: Core, w: Wallet, params: unknown): CallHooks {
  const tx = txBody(w, first(params));
  const send = stages(core, w, tx);
  return {
    ok(hash) {
      tx.hash = hex(hash, 66);
      // `submitted` goes now, with the hash: a dapp that navigates on the hash must not leave it behind the
      // add-on's loading. The rest comes from the add-on (ADR 068). `follow` cannot reject: every wallet call
      // in it resolves and every value it parses is checked.
      if (tx.hash) send('submitted') && core.addon().then((addon) => addon?.follow(w, tx, send));
    },
    fail: failed(send),
  };
}

/**
 * EIP-5792 `wallet_sendCalls`: one user action with several calls, one transaction with one `txId`. A
 * `requested` stage per call (its to, value, selector), `submitted` when the wallet accepts the batch, then
 * `wallet_getCallsStatus` through the original request until the wallet reports it final: one stage per
 * receipt (its hash, status, gas) and last the batch's own outcome with the total gas used.
 */
export function trackBatch(core: Core, w: Wallet, params: unknown): CallHooks {
  const batch = first(params);
  const txId = uid();
  let send: Stages = () => true;
  // Calls carry no sender: the batch's `from`, else the connected account.
  const bodies = ((batch.calls || []) as Rec[]).map((call) => txBody(w, { from: batch.from, ...call }, txId));
  // One type for the whole transaction: Contract as soon as one call has calldata.
  const kind = bodies.some((body) => body.kind === 'contract') ? 'contract' : 'coin';
  for (const body of bodies) send = stages(core, w, { ...body, kind });
  const follow = async () => {
    const status = (await w.q('wallet_getCallsStatus', [id])) as Rec | undefined;
    // 100 pending, 200 confirmed (no call reverted), 400 not included, 500 reverted, 600 partly reverted.
    const outcome = Number(status?.status);
    if (!(outcome >= 200)) return;
    let gasUsed = 0n;
    // EIP-5792 receipts lack the gas price: each is asked for in full.
    for (const short of (status?.receipts || []) as Rec[]) {
      const receipt = (await reportReceipt(w, send, short.transactionHash, short)) as Rec;
      gasUsed += BigInt(dec(receipt.gasUsed) ?? 0);
    }
    // A later millisecond: the batch's own outcome is its latest stage (docs/analytics.md).
    await sleep(2);
    return send(outcome === 200 ? 'confirmed' : outcome === 400 ? 'failed' : 'reverted', {
      gasUsed: String(gasUsed),
    });
  };
  let id: unknown;
  return {
    ok(result) {
      // EIP-5792 v2 answers `{ id }`, v1 the id itself.
      id = (result as Rec | null)?.id ?? result;
      send('submitted');
      poll(follow).catch(noop);
    },
    fail: failed(send),
  };
}

/** `personal_sign` / `eth_signTypedData_v4`: never records the message or the signature, only the outcome. */
export function trackSignature(core: Core, w: Wallet, method: SignatureBody['method']): CallHooks {
  const send = stages(core, w, { type: 'signature', signatureId: uid(), method, stage: 'requested' });
  return { ok: () => send('signed'), fail: failed(send) };
}
