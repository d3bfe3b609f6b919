import { hasAnalyticsFilters } from '@polyflow/contracts/analytics';
import type { WalletRange } from '../api/wallet-keys';

/**
 * What a Wallets card counts under the Analytics screen's filters (docs/wallets.md, "With the Analytics
 * filters"), said on the card; nothing without filters.
 */
export const FILTERED_MEANING = {
  lifecycle:
    'Filtered: the wallets a matching session carried in the period, each at its stage among all wallets.',
  cohorts: 'Filtered: wallets first connected in a matching session; a return counts in any session.',
  cost: 'Filtered: the transactions started in a matching session.',
} as const;

export const isFiltered = (range: WalletRange) => hasAnalyticsFilters(range.filters);

export function FilteredNote({ range, card }: { range: WalletRange; card: keyof typeof FILTERED_MEANING }) {
  if (!isFiltered(range)) return null;
  return (
    <p className="mb-3 text-xs text-slate-600" data-testid={`filtered-note-${card}`}>
      {FILTERED_MEANING[card]}
    </p>
  );
}
