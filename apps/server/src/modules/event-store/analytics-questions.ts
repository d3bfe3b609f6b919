import type { Share } from '@polyflow/contracts/analytics';
import type { HistoryCursor } from '../../reading/cursor.ts';
import type { BucketedRange, EventSpan, TimeRange } from '../../reading/time-range.ts';

/**
 * What the Analytics screen asks the event store, by name. Definitions: docs/analytics.md. A bucketed
 * question answers bucket index → value for the buckets that have one (the service fills the gaps).
 */

export type TransactionOutcomes = {
  /** Every transaction first requested in the bucket, whatever its status. */
  total: number;
  /** Reached `submitted` (the wallet gave a hash). */
  submitted: number;
  /** Latest stage `reverted` (on chain) or `failed` (the wallet could not send it). */
  failed: number;
  /** Submitted, or failed before submission: the transactions the user did not reject. */
  attempted: number;
};

export type ActiveDays = {
  /** Σ over UTC days of the distinct wallets with any event that day. */
  walletDays: number;
  /** Σ over UTC days of the distinct users (SDK user ids) with any event that day. */
  userDays: number;
  /** walletDays of the period of equal length just before the range (for the trend). */
  previousWalletDays: number;
};

export type WalletCounts = {
  /** Wallets connected in the range. */
  connected: number;
  /** Of those, the ones no event of the project carried before the range. */
  fresh: number;
};

export type ContractFunctionRow = {
  chainId: number | null;
  contract: string;
  selector: string;
  calls: number;
};

export type TransactionHistoryRow = {
  id: string;
  hash: string | null;
  timeMs: number;
  wallet: string | null;
  kind: string | null;
  status: string;
  chainId: number | null;
  country: string | null;
  browser: string | null;
};

export type HistoryPage = { limit: number; after: HistoryCursor | null };

/** One stage event of a transaction; big numbers as decimal strings. */
export type TransactionStageEvent = {
  txId: string;
  stage: string | null;
  timeMs: number;
  hash: string | null;
  from: string | null;
  wallet: string | null;
  to: string | null;
  value: string | null;
  selector: string | null;
  kind: string | null;
  chainId: number | null;
  gasLimit: string | null;
  gasPrice: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  nonce: string | null;
  gasUsed: string | null;
  effectiveGasPrice: string | null;
  blockNumber: string | null;
  errorCode: number | null;
  errorMessage: string | null;
  walletProvider: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  path: string | null;
  sessionId: string | null;
};

/** A row of the top pages table (docs/analytics.md, "Top pages and referrers"). */
export type PageRow = {
  path: string;
  /** Distinct users with a page view of the path in the range. */
  users: number;
  /** Distinct wallets connected in the range on a page with this path. */
  wallets: number;
  /** Transactions first requested in the range whose first stage was logged on this path. */
  transactions: number;
};

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

/** The Live screen's tiles (docs/live.md): activity in a recent range, events per bucket. */
export type RecentActivity = {
  /** Distinct users with any event in the range. */
  users: number;
  /** Distinct wallets any event in the range carried. */
  wallets: number;
  /** bucket index → events with their time in the bucket. */
  eventsPerBucket: Map<number, number>;
};

export type AnalyticsQuestions = {
  /** The project's first and last event times: what "all time" means for an open range. */
  eventSpan(projectId: string): Promise<EventSpan>;
  /** Distinct wallets connected in the range, each in the bucket of its first connection in the range. */
  connectedWallets(projectId: string, range: BucketedRange): Promise<Map<number, number>>;
  /** Wallets connected in the range that no event carried before `from`, in the bucket of their first connection. */
  newWallets(projectId: string, range: BucketedRange): Promise<Map<number, number>>;
  /** Transactions per bucket of their request time, by outcome. */
  transactionOutcomes(projectId: string, range: BucketedRange): Promise<Map<number, TransactionOutcomes>>;
  /** Mean effective gas price (wei) of the receipts logged in each bucket, optionally on one chain. */
  averageGasPrice(
    projectId: string,
    range: BucketedRange,
    chainId: number | null,
  ): Promise<Map<number, number>>;
  /** The overview's two wallet tiles. */
  walletCounts(projectId: string, range: TimeRange): Promise<WalletCounts>;
  /** Wallet-days and user-days in the range, and wallet-days in the previous period (default: the one before it). */
  activeDays(projectId: string, range: TimeRange, previousRange?: TimeRange): Promise<ActiveDays>;
  /** Submitted contract transactions requested in the range by chain, contract and selector, most called first. */
  contractFunctions(projectId: string, range: TimeRange, limit: number): Promise<ContractFunctionRow[]>;
  /** Distinct wallets connected in the range per wallet provider, most used first. */
  walletProviders(projectId: string, range: TimeRange): Promise<Share[]>;
  /** Distinct users with any event in the range per country (null: unknown), most users first. */
  usersByCountry(projectId: string, range: TimeRange, limit: number): Promise<Share[]>;
  /** Distinct users with any event in the range per browser (null: unknown), most users first. */
  usersByBrowser(projectId: string, range: TimeRange, limit: number): Promise<Share[]>;
  /** Paths by users, most first (then wallets, transactions, path), at most `limit` rows. */
  topPages(projectId: string, range: TimeRange, limit: number): Promise<PageRow[]>;
  /** Referrer domains by users, most first (then wallets, transactions, domain; direct last on ties). */
  topReferrers(projectId: string, range: TimeRange, limit: number): Promise<ReferrerRow[]>;
  /** Users, wallets and events per bucket in the range (the Live screen's last 30 minutes). */
  recentActivity(projectId: string, range: BucketedRange): Promise<RecentActivity>;
  /** One page of the transactions requested in the range, newest first, strictly after the cursor. */
  transactionHistory(
    projectId: string,
    range: TimeRange,
    page: HistoryPage,
  ): Promise<TransactionHistoryRow[]>;
  /** Every stage event of the transaction with this hash (lower case) or SDK id, oldest first. */
  transactionEvents(projectId: string, hashOrId: string): Promise<TransactionStageEvent[]>;
  /**
   * The message of the latest wallet error about a revert in the transaction's session, from
   * REVERT_ERROR_WINDOW before its request to after its outcome: the reason the contract gave.
   */
  revertErrorNear(
    projectId: string,
    around: { sessionId: string; fromMs: number; toMs: number },
  ): Promise<string | null>;
};
