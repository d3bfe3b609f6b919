import type { AcquisitionFilters, FunnelStepKey } from '@polyflow/contracts/acquisition';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count } from '../../rows.ts';

export type FunnelCounts = Record<FunnelStepKey, number>;

/**
 * Distinct users per funnel step over the events in the range (of the sessions passing the filters)
 * (docs/acquisition-and-incidents.md#funnel-acquisitionfunnel).
 */
export type FunnelCountsQuestion = {
  funnelCounts(projectId: string, range: TimeRange, filters: AcquisitionFilters): Promise<FunnelCounts>;
};

export const FunnelRow = z.object({
  total_users: count,
  have_wallets: count,
  have_connected: count,
  have_tx: count,
  have_multiple_tx: count,
  signed: count,
});

export const funnelCountsOf = (row: z.infer<typeof FunnelRow> | undefined): FunnelCounts => ({
  totalUsers: row?.total_users ?? 0,
  haveWallets: row?.have_wallets ?? 0,
  haveConnectedWallet: row?.have_connected ?? 0,
  haveExecutedTransaction: row?.have_tx ?? 0,
  haveExecutedMultipleTransactions: row?.have_multiple_tx ?? 0,
  signedData: row?.signed ?? 0,
});
