import type { WalletListQuery, WalletListSort } from '../../wallet-questions.ts';

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
