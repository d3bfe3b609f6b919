import {
  type TransactionDetail,
  type TransactionRow,
  TransactionStatuses,
} from '@polyflow/contracts/analytics';
import type { HistoryRow } from '../event-store/duckdb/questions/transaction-history.ts';
import { explorerUrlOf } from './explorers.ts';
import { functionNameOf } from './known-selectors.ts';

type Status = TransactionRow['status'];
const asStatus = (value: unknown): Status =>
  (TransactionStatuses as readonly string[]).includes(String(value)) ? (value as Status) : 'requested';
const typeOf = (kind: unknown): TransactionRow['type'] => (kind === 'coin' ? 'Coin' : 'Contract');
const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

export function toTransactionRow(row: HistoryRow): TransactionRow {
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

/**
 * One transaction from its stage events (oldest first): each field as last reported (later stages repeat
 * and complete the request's fields: nonce, gas, receipt), the status of the latest stage.
 */
export function toTransactionDetail(events: Record<string, unknown>[]): TransactionDetail | null {
  const first = events[0];
  const last = events[events.length - 1];
  if (!first || !last) return null;
  const latest = (column: string): string | null => {
    for (let i = events.length - 1; i >= 0; i--) {
      const value = events[i]?.[column];
      if (value !== null && value !== undefined) return String(value);
    }
    return null;
  };
  const chainId = latest('chain_id') === null ? null : Number(latest('chain_id'));
  const hash = latest('tx_hash');
  const selector = latest('selector');
  const gasUsed = latest('gas_used');
  const effectiveGasPrice = latest('effective_gas_price');
  return {
    id: String(first.tx_id),
    hash,
    time: new Date(Number(first.time_ms)).toISOString(),
    wallet: latest('tx_from') ?? latest('wallet_address'),
    type: typeOf(latest('tx_kind')),
    status: asStatus(last.tx_stage),
    chainId,
    country: text(first.country),
    browser: text(first.browser),
    from: latest('tx_from'),
    to: latest('tx_to'),
    value: latest('tx_value'),
    selector,
    functionName: functionNameOf(selector),
    nonce: latest('nonce'),
    gasLimit: latest('gas_limit'),
    gasPrice: latest('gas_price'),
    maxFeePerGas: latest('max_fee_per_gas'),
    maxPriorityFeePerGas: latest('max_priority_fee_per_gas'),
    gasUsed,
    effectiveGasPrice,
    fee:
      gasUsed !== null && effectiveGasPrice !== null
        ? (BigInt(gasUsed) * BigInt(effectiveGasPrice)).toString()
        : null,
    blockNumber: latest('block_number'),
    walletProvider: latest('wallet_provider'),
    os: text(first.os),
    path: text(first.path),
    explorerUrl: explorerUrlOf(chainId, hash),
    stages: events.map((event) => ({
      stage: asStatus(event.tx_stage),
      time: new Date(Number(event.time_ms)).toISOString(),
      errorCode:
        event.error_code === null || event.error_code === undefined ? null : Number(event.error_code),
      errorMessage: text(event.error_message),
    })),
  };
}
