import { z } from 'zod';
import { labelText } from './text.ts';

/**
 * What the analytics GraphQL queries answer (`apps/server/src/modules/analytics/schema.ts`), for the
 * console to parse. Definitions of every figure: `docs/analytics.md`.
 *
 * Times are ISO 8601 UTC strings. Wei amounts (values, gas prices, fees) are decimal strings because they
 * exceed 2^53; averages of gas prices are numbers in wei (the console shows gwei = wei / 1e9).
 */

const isoTime = z.string();

const filterValues = z.array(labelText(256).min(1)).max(100);

/**
 * The Analytics screen's filters (docs/analytics.md, "Filters"). Each list is "any of these values"; an
 * absent or empty list does not filter; lists combine with AND. A filter keeps the sessions of which one
 * event in the range carries one of the values, and every figure is then asked of those sessions' events
 * (a transaction: of its request's session). The names shared with `AcquisitionFilters` mean the same
 * values; the console keeps each list in the URL under its name, comma-separated.
 */
export const AnalyticsFiltersSchema = z
  .object({
    countries: filterValues.optional(),
    browsers: filterValues.optional(),
    oses: filterValues.optional(),
    devices: filterValues.optional(),
    walletProviders: filterValues.optional(),
    chains: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(100).optional(),
    sources: filterValues.optional(),
    mediums: filterValues.optional(),
    campaigns: filterValues.optional(),
    pages: filterValues.optional(),
    referrers: filterValues.optional(),
  })
  .strict();
export type AnalyticsFilters = z.infer<typeof AnalyticsFiltersSchema>;
export const AnalyticsFilterKeys = [
  'countries',
  'browsers',
  'oses',
  'devices',
  'walletProviders',
  'chains',
  'sources',
  'mediums',
  'campaigns',
  'pages',
  'referrers',
] as const satisfies readonly (keyof AnalyticsFilters)[];
export type AnalyticsFilterKey = (typeof AnalyticsFilterKeys)[number];

/** Whether any list of the filters holds a value. */
export const hasAnalyticsFilters = (filters: AnalyticsFilters | undefined | null): boolean =>
  filters != null && AnalyticsFilterKeys.some((key) => (filters[key]?.length ?? 0) > 0);

/** One bucket of a count series: [from, to) and the count in it (0 when nothing happened). */
export const TimeBucketSchema = z.object({ from: isoTime, to: isoTime, value: z.number() });
export type TimeBucket = z.infer<typeof TimeBucketSchema>;
export const TimeSeriesSchema = z.array(TimeBucketSchema);

/** One bucket of an average series: null when the bucket holds nothing to average. */
export const AverageBucketSchema = z.object({ from: isoTime, to: isoTime, value: z.number().nullable() });
export type AverageBucket = z.infer<typeof AverageBucketSchema>;

/** Daily active wallets in the range against the period of equal length just before it. */
export const ActiveWalletsTrendSchema = z.object({
  current: z.number(),
  previous: z.number(),
  /** (current − previous) / previous, e.g. 0.73 for +73 %; null when the previous period had none. */
  change: z.number().nullable(),
  previousFrom: isoTime,
  previousTo: isoTime,
});
export type ActiveWalletsTrend = z.infer<typeof ActiveWalletsTrendSchema>;

/** Every tile of the Analytics overview card, for one range. */
export const AnalyticsOverviewSchema = z.object({
  from: isoTime,
  to: isoTime,
  /** Transactions of any status first requested in the range. */
  totalTransactions: z.number(),
  /** Distinct wallets connected in the range ("Unique Wallets"). */
  connectedWallets: z.number(),
  /** Of those, wallets never seen before the range ("New Wallets Connected"). */
  newWallets: z.number(),
  /** Transactions that reached `submitted` (have a hash). */
  submittedTransactions: z.number(),
  /** Transactions whose latest stage is `reverted` or `failed`. */
  failedTransactions: z.number(),
  /** The fail rate's denominator: submitted, plus failed before submission (rejected ones are not). */
  attemptedTransactions: z.number(),
  /** failed / (submitted + failed before submission); null when there were none. 0.027 = 2.7 %. */
  transactionFailRate: z.number().nullable(),
  /** Distinct wallets with any event per UTC day, averaged over the days of the range. */
  dailyActiveWallets: z.number(),
  /** Transactions per active user per UTC day; null when no user was active. */
  averageTransactionsPerUserPerDay: z.number().nullable(),
  dailyActiveWalletsTrend: ActiveWalletsTrendSchema,
});
export type AnalyticsOverview = z.infer<typeof AnalyticsOverviewSchema>;

export const ContractFunctionCallsSchema = z.object({
  chainId: z.number().nullable(),
  /** The contract address (lower case). */
  contract: z.string(),
  /** First 4 bytes of the calldata, e.g. 0xa9059cbb. */
  selector: z.string(),
  /** The function's signature when the selector is a well-known one, e.g. `transfer(address,uint256)`. */
  functionName: z.string().nullable(),
  /** Submitted transactions calling it in the range. */
  calls: z.number(),
});
export type ContractFunctionCalls = z.infer<typeof ContractFunctionCallsSchema>;

/** A slice of a pie or bar chart: `key` null is "Unknown" (the server could not tell). */
export const ShareSchema = z.object({ key: z.string().nullable(), value: z.number() });
export type Share = z.infer<typeof ShareSchema>;

export const TransactionTypes = ['Coin', 'Contract'] as const;
export const TransactionStatuses = [
  'requested',
  'rejected',
  'failed',
  'submitted',
  'confirmed',
  'reverted',
  'replaced',
  'dropped',
] as const;

/** One row of the Transaction History tab. */
export const TransactionRowSchema = z.object({
  /** The SDK's transaction id: stable even when there is no hash (rejected, failed). */
  id: z.string(),
  hash: z.string().nullable(),
  /** When the dapp asked the wallet to send it. */
  time: isoTime,
  wallet: z.string().nullable(),
  type: z.enum(TransactionTypes),
  status: z.enum(TransactionStatuses),
  chainId: z.number().nullable(),
  country: z.string().nullable(),
  browser: z.string().nullable(),
});
export type TransactionRow = z.infer<typeof TransactionRowSchema>;

export const TransactionPageSchema = z.object({
  rows: z.array(TransactionRowSchema),
  /** Transactions in the range over every page (the overview's Total Transactions). */
  total: z.number(),
  /** Pass as `after` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

export const TransactionStageSchema = z.object({
  stage: z.enum(TransactionStatuses),
  time: isoTime,
  errorCode: z.number().nullable(),
  errorMessage: z.string().nullable(),
});

/**
 * One receipt of a transaction: a `confirmed` or `reverted` stage with gas used and an effective gas price,
 * as last reported for its hash (docs/analytics.md). A batch mined as several transactions has one each.
 */
export const TransactionReceiptSchema = z.object({
  hash: z.string().nullable(),
  status: z.enum(['confirmed', 'reverted']),
  /** When the receipt was (last) reported. */
  time: isoTime,
  blockNumber: z.string().nullable(),
  gasUsed: z.string(),
  effectiveGasPrice: z.string(),
  /** Wei: gas used × effective gas price. */
  fee: z.string(),
  /** Link to this receipt's transaction on the chain's block explorer; null for unknown or local chains. */
  explorerUrl: z.string().nullable(),
});
export type TransactionReceipt = z.infer<typeof TransactionReceiptSchema>;

/** The full record behind Inspect. */
export const TransactionDetailSchema = TransactionRowSchema.extend({
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Wei, decimal string. */
  value: z.string().nullable(),
  selector: z.string().nullable(),
  functionName: z.string().nullable(),
  nonce: z.string().nullable(),
  gasLimit: z.string().nullable(),
  gasPrice: z.string().nullable(),
  maxFeePerGas: z.string().nullable(),
  maxPriorityFeePerGas: z.string().nullable(),
  gasUsed: z.string().nullable(),
  effectiveGasPrice: z.string().nullable(),
  /**
   * Wei: the sum over its receipts (confirmed or reverted stages with gas used and a price) of gas used ×
   * effective gas price, each receipt hash once; null without a receipt (docs/analytics.md).
   */
  fee: z.string().nullable(),
  blockNumber: z.string().nullable(),
  walletProvider: z.string().nullable(),
  os: z.string().nullable(),
  path: z.string().nullable(),
  /** Link to the transaction on the chain's block explorer; null for unknown or local chains. */
  explorerUrl: z.string().nullable(),
  /**
   * Why a reverted or failed transaction did not go through, as reported: the failing stage's error
   * message, else a wallet error about a revert in the same session around it (docs/analytics.md).
   */
  revertReason: z.string().nullable(),
  stages: z.array(TransactionStageSchema),
  /** Its receipts, each hash once at its latest report, in the order of those reports; `fee` is their sum. */
  receipts: z.array(TransactionReceiptSchema),
});
export type TransactionDetail = z.infer<typeof TransactionDetailSchema>;

/** A row of the Analytics screen's top pages table (docs/analytics.md). */
export const PageRowSchema = z.object({
  path: z.string(),
  users: z.number(),
  wallets: z.number(),
  transactions: z.number(),
});
export type PageRow = z.infer<typeof PageRowSchema>;

/** A row of the top referrers table; domain null: direct (no referrer, or the dapp's own host). */
export const ReferrerRowSchema = z.object({
  domain: z.string().nullable(),
  users: z.number(),
  wallets: z.number(),
  transactions: z.number(),
});
export type ReferrerRow = z.infer<typeof ReferrerRowSchema>;
