import type { AttributionRow } from '@polyflow/contracts/acquisition';

export type SortDirection = 'asc' | 'desc';

export const AttributionSortKeys = [
  'newWallets',
  'connects',
  'transactions',
  'transactionSessionRate',
  'transactionUserRate',
  'connectSessionRate',
  'connectUserRate',
] as const;
export type AttributionSortKey = (typeof AttributionSortKeys)[number];

export interface AttributionColumn {
  key: AttributionSortKey;
  header: string;
  kind: 'count' | 'rate';
  /** The legend's words (definitions: docs/acquisition-and-incidents.md). */
  definition: string;
  /** For rates: the counts the fraction is made of, shown as the cell's title. */
  parts?: (row: AttributionRow) => string;
}

export const AttributionColumns: readonly AttributionColumn[] = [
  {
    key: 'newWallets',
    header: '+ Wallets',
    kind: 'count',
    definition: 'Wallets whose first connection ever happened in the period, in a session of this row.',
  },
  { key: 'connects', header: 'Connects', kind: 'count', definition: 'Wallet connections.' },
  { key: 'transactions', header: 'TXS', kind: 'count', definition: 'Transactions submitted (with a hash).' },
  {
    key: 'transactionSessionRate',
    header: 'TX(S) %',
    kind: 'rate',
    definition: 'Sessions with a transaction ÷ sessions.',
    parts: (row) => `${row.sessionsWithTransaction} of ${row.sessions} sessions`,
  },
  {
    key: 'transactionUserRate',
    header: 'TX(U) %',
    kind: 'rate',
    definition: 'Users with a transaction ÷ users.',
    parts: (row) => `${row.usersWithTransaction} of ${row.users} users`,
  },
  {
    key: 'connectSessionRate',
    header: 'WConn(S) %',
    kind: 'rate',
    definition: 'Sessions with a wallet connection ÷ sessions.',
    parts: (row) => `${row.sessionsWithConnect} of ${row.sessions} sessions`,
  },
  {
    key: 'connectUserRate',
    header: 'WConn(U) %',
    kind: 'rate',
    definition: 'Users with a wallet connection ÷ users.',
    parts: (row) => `${row.usersWithConnect} of ${row.users} users`,
  },
];

const countFormat = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return countFormat.format(value);
}

/**
 * Total stays on top; the other rows (values and Unattributed) are ordered by the column, rates
 * without a value last in either direction, ties by name so the order is stable.
 */
export function sortAttributionRows(
  rows: readonly AttributionRow[],
  sort: { key: AttributionSortKey; direction: SortDirection } | null,
): AttributionRow[] {
  const total = rows.filter((row) => row.kind === 'total');
  const rest = rows.filter((row) => row.kind !== 'total');
  if (!sort) return [...total, ...rest];
  const sign = sort.direction === 'asc' ? 1 : -1;
  const sorted = [...rest].sort((a, b) => {
    const left = a[sort.key];
    const right = b[sort.key];
    if (left === null || right === null) {
      if (left === right) return 0;
      return left === null ? 1 : -1;
    }
    return (left - right) * sign || (a.value ?? '').localeCompare(b.value ?? '');
  });
  return [...total, ...sorted];
}
