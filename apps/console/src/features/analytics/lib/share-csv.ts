import type { ContractFunctionCalls, PageRow, ReferrerRow, Share } from '@polyflow/contracts/analytics';
import type { CsvTable } from '../../../lib/csv';

export interface ShareColumns {
  /** The slice's column, e.g. "country". */
  key: string;
  /** The count's column, e.g. "users". */
  value: string;
  /** When the legend shows a name for a code (countries): the name, and the code in `<key>_code`. */
  nameOf?: (key: string) => string;
  /** What a slice without a key is ("No UTM source" for sources); "Unknown" otherwise. */
  noKey?: string;
}

/** A referrer row without a domain: no referrer, or a page of the dapp's own site (docs/analytics.md). */
export const DIRECT_REFERRER = 'Direct (no referrer)';

/**
 * A distribution chart as a file: every slice (Show all's, not only those drawn), as its legend names it,
 * the count, and its share (0..1) of the whole.
 */
export function sharesCsv(shares: readonly Share[], { key, value, nameOf, noKey }: ShareColumns): CsvTable {
  const total = shares.reduce((sum, share) => sum + share.value, 0);
  const shareOf = (share: Share) => (total > 0 ? share.value / total : null);
  const nameIn = (share: Share) =>
    share.key === null ? (noKey ?? 'Unknown') : (nameOf?.(share.key) ?? share.key);
  if (!nameOf) {
    return { header: [key, value, 'share'], rows: shares.map((s) => [nameIn(s), s.value, shareOf(s)]) };
  }
  return {
    header: [key, `${key}_code`, value, 'share'],
    rows: shares.map((s) => [nameIn(s), s.key, s.value, shareOf(s)]),
  };
}

/**
 * The contract functions as a file: every row the server returned (Show all's), every column in full (no
 * shortened address), and each function's share of all those calls.
 */
export function contractFunctionsCsv(rows: readonly ContractFunctionCalls[]): CsvTable {
  const total = rows.reduce((sum, row) => sum + row.calls, 0);
  return {
    header: ['chain_id', 'contract', 'selector', 'function', 'calls', 'share'],
    rows: rows.map((row) => [
      row.chainId,
      row.contract,
      row.selector,
      row.functionName,
      row.calls,
      total > 0 ? row.calls / total : null,
    ]),
  };
}

/** Each row's users as a share (0..1) of the users of every row: the tables' Share column. */
function userShares(rows: readonly { users: number }[]): (users: number) => number | null {
  const total = rows.reduce((sum, row) => sum + row.users, 0);
  return (users) => (total > 0 ? users / total : null);
}

/** The top pages table as a file, in the order shown, each page's share of the users of every page. */
export function topPagesCsv(rows: readonly PageRow[]): CsvTable {
  const shareOf = userShares(rows);
  return {
    header: ['path', 'users', 'share', 'wallets_connected', 'transactions_started'],
    rows: rows.map((row) => [row.path, row.users, shareOf(row.users), row.wallets, row.transactions]),
  };
}

/** The top referrers table as a file, in the order shown; visits without another site's referrer as on screen. */
export function topReferrersCsv(rows: readonly ReferrerRow[]): CsvTable {
  const shareOf = userShares(rows);
  return {
    header: ['referrer', 'users', 'share', 'wallets', 'transactions'],
    rows: rows.map((row) => [
      row.domain ?? DIRECT_REFERRER,
      row.users,
      shareOf(row.users),
      row.wallets,
      row.transactions,
    ]),
  };
}
