import { z } from 'zod';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';
import type {
  LifecycleStage,
  WalletListQuery,
  WalletListRow,
  WalletListSort,
} from '../../wallet-questions.ts';

/**
 * The Wallets list (docs/wallets.md, "The Wallets list"): the wallets any event carried (as the connected
 * wallet) in the range, narrowed by the filters (an event of the wallet in the range on the chain / from
 * the country; its lifecycle stage as of the range's last day; the landing UTM source / campaign of its
 * first event ever), each with its first event ever, its latest event in the range, the transactions it
 * requested in the range (latest stage `failed` or `reverted`: failed) and the gas their receipts paid.
 * Sorted by one column, ties by address, paged after the previous page's last (value, address).
 */

/** The output column each sort orders by (both engines name them so). */
export const SORT_COLUMN: Record<WalletListSort, string> = {
  last_seen: 'last_ms',
  first_seen: 'first_ms',
  transactions: 'transactions',
  failed: 'failed',
  gas_paid: 'gas_paid',
};

/** The (value, address) comparison that keeps the rows after the cursor in the sort's direction. */
export const afterCursor = (query: WalletListQuery, value: string, wallet: string) =>
  `(${SORT_COLUMN[query.sort]}, list_wallet) ${query.descending ? '<' : '>'} (${value}, ${wallet})`;

export const orderBy = (query: WalletListQuery) => {
  const direction = query.descending ? 'DESC' : 'ASC';
  return `${SORT_COLUMN[query.sort]} ${direction}, list_wallet ${direction}`;
};

/** A listed wallet as both engines answer it; the gas paid as decimal text. */
export const ListRow = z.object({
  list_wallet: text,
  first_ms: count,
  last_ms: count,
  transactions: count,
  failed: count,
  gas_paid_text: text,
  stage: text,
  source: textOrNull,
  campaign: textOrNull,
  /** The Power threshold the query derived (absent when the query was given one). */
  power_threshold: numberOrNull.optional(),
});

export const walletListRowOf = (row: z.infer<typeof ListRow>): WalletListRow => ({
  wallet: row.list_wallet,
  firstSeenMs: row.first_ms,
  lastSeenMs: row.last_ms,
  transactions: row.transactions,
  failed: row.failed,
  gasPaidWei: row.gas_paid_text,
  stage: row.stage as LifecycleStage,
  source: row.source,
  campaign: row.campaign,
  ...(row.power_threshold !== undefined && { powerThreshold: row.power_threshold }),
});
