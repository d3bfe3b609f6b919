import type { AnalyticsFilters, Share } from '@polyflow/contracts/analytics';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, textOrNull } from '../../rows.ts';

/** Distinct wallets connected in the range per wallet provider, most used first (docs/analytics.md#charts-and-tables). */
export type WalletProvidersQuestion = {
  walletProviders(projectId: string, range: TimeRange, filters?: AnalyticsFilters): Promise<Share[]>;
};

/** A row of a share chart (this one and users-by-attribute's); named `share_…`, as a ClickHouse alias must not equal a column. */
export const ShareRow = z.object({ share_key: textOrNull, share_value: count });

export const shareOf = (row: z.infer<typeof ShareRow>): Share => ({
  key: row.share_key,
  value: row.share_value,
});
