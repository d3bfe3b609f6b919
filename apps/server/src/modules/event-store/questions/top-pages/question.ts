import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, text } from '../../rows.ts';

/** A row of the top pages table. */
export type PageRow = {
  path: string;
  /** Distinct users with a page view of the path in the range. */
  users: number;
  /** Distinct wallets connected in the range on a page with this path. */
  wallets: number;
  /** Transactions first requested in the range whose first stage was logged on this path. */
  transactions: number;
};

/** Paths by users, most first (then wallets, transactions, path), at most `limit` rows (docs/analytics.md#top-pages-and-referrers). */
export type TopPagesQuestion = {
  topPages(
    projectId: string,
    range: TimeRange,
    limit: number,
    filters?: AnalyticsFilters,
  ): Promise<PageRow[]>;
};

export const PageRowSchema = z.object({ page: text, users: count, wallets: count, transactions: count });

export const pageRowOf = (row: z.infer<typeof PageRowSchema>): PageRow => ({
  path: row.page,
  users: row.users,
  wallets: row.wallets,
  transactions: row.transactions,
});
