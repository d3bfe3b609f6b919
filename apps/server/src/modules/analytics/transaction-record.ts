import {
  type TransactionDetail,
  type TransactionReceipt,
  type TransactionRow,
  TransactionStatuses,
} from '@polyflow/contracts/analytics';
import { functionNameOf } from '../../reading/known-selectors.ts';
import type { TransactionHistoryRow, TransactionStageEvent } from '../event-store/analytics-questions.ts';
import { explorerUrlOf } from './explorers.ts';

type Status = TransactionRow['status'];
const asStatus = (value: unknown): Status =>
  (TransactionStatuses as readonly string[]).includes(String(value)) ? (value as Status) : 'requested';
const typeOf = (kind: unknown): TransactionRow['type'] => (kind === 'coin' ? 'Coin' : 'Contract');

export function toTransactionRow(row: TransactionHistoryRow): TransactionRow {
  return {
    id: row.id,
    hash: row.hash,
    time: new Date(row.timeMs).toISOString(),
    wallet: row.wallet,
    type: typeOf(row.kind),
    status: asStatus(row.status),
    chainId: row.chainId,
    country: row.country,
    browser: row.browser,
  };
}

/** The last non-null value of a field over the stages (later stages repeat and complete the request's). */
function latestOf<K extends keyof TransactionStageEvent>(
  events: readonly TransactionStageEvent[],
  field: K,
): NonNullable<TransactionStageEvent[K]> | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const value = events[i]?.[field];
    if (value !== null && value !== undefined) return value as NonNullable<TransactionStageEvent[K]>;
  }
  return null;
}

/** The failing stage's own message (the wallet's or the chain's words), if it has one. */
function failureMessage(events: readonly TransactionStageEvent[]): string | null {
  const failing = events.findLast((event) => event.stage === 'reverted' || event.stage === 'failed');
  return failing ? failing.errorMessage : null;
}

/**
 * The transaction's receipts (docs/analytics.md#transaction-history-and-a-single-transaction): its `confirmed`
 * and `reverted` stages with gas used and an effective gas price, each receipt hash once, at its latest report
 * (a receipt reported again replaces its earlier report), in the order of those reports. An EIP-5792 batch
 * mined as several transactions has one per transaction, each at its own block's price; its outcome stage
 * (the total gas, no price) is no receipt.
 */
export function receiptsOf(events: readonly TransactionStageEvent[]): TransactionReceipt[] {
  const byHash = new Map<string | null, TransactionReceipt>();
  let chainId: number | null = null;
  for (const event of events) {
    chainId = event.chainId ?? chainId;
    if (event.stage !== 'confirmed' && event.stage !== 'reverted') continue;
    if (event.gasUsed === null || event.effectiveGasPrice === null) continue;
    const key = event.hash?.toLowerCase() ?? null;
    byHash.delete(key);
    byHash.set(key, {
      hash: event.hash,
      status: event.stage,
      time: new Date(event.timeMs).toISOString(),
      blockNumber: event.blockNumber,
      gasUsed: event.gasUsed,
      effectiveGasPrice: event.effectiveGasPrice,
      fee: (BigInt(event.gasUsed) * BigInt(event.effectiveGasPrice)).toString(),
      explorerUrl: explorerUrlOf(chainId, event.hash),
    });
  }
  return [...byHash.values()];
}

/** The transaction's fee in wei: the sum of its receipts' fees (receiptsOf); null without a receipt. */
export function feeOf(events: readonly TransactionStageEvent[]): string | null {
  return sumOfFees(receiptsOf(events));
}

function sumOfFees(receipts: readonly TransactionReceipt[]): string | null {
  if (receipts.length === 0) return null;
  return receipts.reduce((total, receipt) => total + BigInt(receipt.fee), 0n).toString();
}

/**
 * One transaction from its stage events (oldest first): each field as last reported (later stages repeat
 * and complete the request's fields: nonce, gas, receipt), the status of the latest stage.
 */
export function toTransactionDetail(events: readonly TransactionStageEvent[]): TransactionDetail | null {
  const first = events[0];
  const last = events[events.length - 1];
  if (!first || !last) return null;
  const latest = <K extends keyof TransactionStageEvent>(field: K) => latestOf(events, field);
  const chainId = latest('chainId');
  const hash = latest('hash');
  const selector = latest('selector');
  const gasUsed = latest('gasUsed');
  const effectiveGasPrice = latest('effectiveGasPrice');
  const receipts = receiptsOf(events);
  return {
    id: first.txId,
    hash,
    time: new Date(first.timeMs).toISOString(),
    wallet: latest('from') ?? latest('wallet'),
    type: typeOf(latest('kind')),
    status: asStatus(last.stage),
    chainId,
    country: first.country,
    browser: first.browser,
    from: latest('from'),
    to: latest('to'),
    value: latest('value'),
    selector,
    functionName: functionNameOf(selector),
    nonce: latest('nonce'),
    gasLimit: latest('gasLimit'),
    gasPrice: latest('gasPrice'),
    maxFeePerGas: latest('maxFeePerGas'),
    maxPriorityFeePerGas: latest('maxPriorityFeePerGas'),
    gasUsed,
    effectiveGasPrice,
    fee: sumOfFees(receipts),
    blockNumber: latest('blockNumber'),
    walletProvider: latest('walletProvider'),
    os: first.os,
    path: first.path,
    explorerUrl: explorerUrlOf(chainId, hash),
    // The failing stage's own message (the wallet's or the chain's words); the service may add one from
    // a wallet error of the same session when the stage has none.
    revertReason: failureMessage(events),
    stages: events.map((event) => ({
      stage: asStatus(event.stage),
      time: new Date(event.timeMs).toISOString(),
      errorCode: event.errorCode,
      errorMessage: event.errorMessage,
    })),
    receipts,
  };
}
