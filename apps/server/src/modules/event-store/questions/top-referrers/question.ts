import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, textOrNull } from '../../rows.ts';

/** A row of the top referrers table; `domain` null: sessions that came with no other site's referrer. */
export type ReferrerRow = {
  domain: string | null;
  /** Distinct users with a session in the range whose first page view came from the domain. */
  users: number;
  /** Distinct wallets connected in the range in those sessions. */
  wallets: number;
  /** Transactions first requested in the range in those sessions. */
  transactions: number;
};

/**
 * Referrer domains by users, most first (then wallets, transactions, domain; direct last on ties)
 * (docs/analytics.md#top-pages-and-referrers).
 */
export type TopReferrersQuestion = {
  topReferrers(
    projectId: string,
    range: TimeRange,
    limit: number,
    filters?: AnalyticsFilters,
  ): Promise<ReferrerRow[]>;
};

/** `domain_key` null or '' (ClickHouse keeps direct as a key like any other): direct. */
export const ReferrerRowSchema = z.object({
  domain_key: textOrNull,
  users: count,
  wallets: count,
  transactions: count,
});

export const referrerRowOf = (row: z.infer<typeof ReferrerRowSchema>): ReferrerRow => ({
  domain: row.domain_key || null,
  users: row.users,
  wallets: row.wallets,
  transactions: row.transactions,
});
