import { z } from 'zod';

/**
 * What the wallet GraphQL queries answer (`apps/server/src/modules/wallets/schema.ts`), for the console
 * to parse. Every figure: `docs/wallets.md`. Times are ISO 8601 UTC strings; wei are decimal strings.
 */

const isoTime = z.string();

export const LifecycleStages = ['NEW', 'RESURRECTED', 'POWER', 'ACTIVE', 'AT_RISK', 'CHURNED'] as const;
export type LifecycleStageName = (typeof LifecycleStages)[number];
export const LifecycleStageLabels: Record<LifecycleStageName, string> = {
  NEW: 'New',
  RESURRECTED: 'Resurrected',
  POWER: 'Power',
  ACTIVE: 'Active',
  AT_RISK: 'At risk',
  CHURNED: 'Churned',
};

export const WalletChainGasSchema = z.object({
  chainId: z.number().nullable(),
  gasPaidWei: z.string(),
  gasBurnedWei: z.string(),
  burnedShare: z.number().nullable(),
  reverted: z.number(),
  failedBeforeSubmission: z.number(),
});
export type WalletChainGas = z.infer<typeof WalletChainGasSchema>;

export const WalletTimelineEventSchema = z.object({
  eventId: z.string(),
  time: isoTime,
  type: z.string(),
  /** A custom event's name. */
  eventName: z.string().nullable(),
  path: z.string().nullable(),
  walletAddress: z.string().nullable(),
  walletProvider: z.string().nullable(),
  chainId: z.number().nullable(),
  txId: z.string().nullable(),
  txStage: z.string().nullable(),
  txHash: z.string().nullable(),
  txTo: z.string().nullable(),
  selector: z.string().nullable(),
  gasUsed: z.string().nullable(),
  effectiveGasPrice: z.string().nullable(),
  sigStage: z.string().nullable(),
  sigMethod: z.string().nullable(),
  errorSource: z.string().nullable(),
  errorMessage: z.string().nullable(),
  errorCode: z.number().nullable(),
  rpcMethod: z.string().nullable(),
  incidentId: z.string().nullable(),
  gasBalance: z.string().nullable(),
  walletNonce: z.string().nullable(),
});
export type WalletTimelineEvent = z.infer<typeof WalletTimelineEventSchema>;

export const WalletSchema = z.object({
  address: z.string(),
  firstSeen: isoTime,
  lastSeen: isoTime,
  firstConnected: isoTime.nullable(),
  firstTouch: z
    .object({
      source: z.string().nullable(),
      medium: z.string().nullable(),
      campaign: z.string().nullable(),
      referrer: z.string().nullable(),
      landingPath: z.string().nullable(),
    })
    .nullable(),
  countries: z.array(z.string()),
  browsers: z.array(z.string()),
  providers: z.array(z.string()),
  chains: z.array(z.number()),
  sessionCount: z.number(),
  transactions: z.number(),
  failedBeforeSubmission: z.number(),
  reverted: z.number(),
  gas: z.array(WalletChainGasSchema),
  stage: z.enum(LifecycleStages).nullable(),
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      startedAt: isoTime,
      endedAt: isoTime,
      events: z.array(WalletTimelineEventSchema),
    }),
  ),
  /** Cursor of the older sessions (the `walletSessions` query's `after`); null when these are all. */
  olderSessions: z.string().nullable(),
});
export type Wallet = z.infer<typeof WalletSchema>;
export type WalletSession = Wallet['sessions'][number];

export const WalletListRowSchema = z.object({
  address: z.string(),
  firstSeen: isoTime,
  lastSeen: isoTime,
  transactions: z.number(),
  failed: z.number(),
  gasPaidWei: z.string(),
  stage: z.enum(LifecycleStages),
  source: z.string().nullable(),
  campaign: z.string().nullable(),
});
export type WalletListRow = z.infer<typeof WalletListRowSchema>;

export const WalletListSchema = z.object({
  asOf: z.string(),
  powerThreshold: z.number().nullable(),
  rows: z.array(WalletListRowSchema),
  nextCursor: z.string().nullable(),
});
export type WalletList = z.infer<typeof WalletListSchema>;

export const WalletListSorts = ['last_seen', 'first_seen', 'transactions', 'failed', 'gas_paid'] as const;
export type WalletListSort = (typeof WalletListSorts)[number];

export const LifecycleCountsSchema = z.object({
  asOf: z.string(),
  new: z.number(),
  resurrected: z.number(),
  power: z.number(),
  active: z.number(),
  atRisk: z.number(),
  churned: z.number(),
  powerThreshold: z.number().nullable(),
});
export type LifecycleCounts = z.infer<typeof LifecycleCountsSchema>;
export const WalletLifecycleSchema = z.object({
  current: LifecycleCountsSchema,
  previous: LifecycleCountsSchema,
});
export type WalletLifecycle = z.infer<typeof WalletLifecycleSchema>;

export const RetentionCohortsSchema = z.object({
  granularity: z.enum(['DAY', 'WEEK']),
  periods: z.number(),
  cohorts: z.array(
    z.object({
      start: isoTime,
      end: isoTime,
      size: z.number(),
      returned: z.array(z.number().nullable()),
      shares: z.array(z.number().nullable()),
    }),
  ),
});
export type RetentionCohorts = z.infer<typeof RetentionCohortsSchema>;

export const FailedTransactionCostSchema = z.object({
  chains: z.array(WalletChainGasSchema),
  rows: z.array(
    z.object({
      day: z.string(),
      chainId: z.number().nullable(),
      contract: z.string().nullable(),
      selector: z.string().nullable(),
      reverted: z.number(),
      gasBurnedWei: z.string(),
    }),
  ),
});
export type FailedTransactionCost = z.infer<typeof FailedTransactionCostSchema>;
