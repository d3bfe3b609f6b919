import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { DEFAULT_TIME_ZONE, instantOfWallClock, wallClockMs } from '@polyflow/contracts/time-zone';
import type { TimeRange } from '../../reading/time-range.ts';

/**
 * What the wallet page, the Wallets list and the Analytics screen's wallet cards ask the event store.
 * Definitions (the contract): docs/wallets.md. Each question is one folder under `questions/`, its two
 * engines side by side; this file is the port's view of them. Addresses are passed lower case.
 */

/** The lifecycle stages, in the order they are decided (the first that holds wins). */
export const LIFECYCLE_STAGES = ['new', 'resurrected', 'power', 'active', 'at_risk', 'churned'] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** Day windows of the stages, counted back from the as-of day A (A itself is day 0). */
export const LIFECYCLE_WINDOWS = {
  /** New: first seen on one of the last 7 days (A−6…A). */
  newDays: 7,
  /** Active and Power: active on one of the last 14 days (A−13…A). */
  recentDays: 14,
  /** At risk / Churned / Power's count: the last 28 days (A−27…A). */
  lifeDays: 28,
  /** Power: the top tenth of the recently active wallets by active days in the last 28, at least this many. */
  powerMinDays: 2,
  powerShare: 0.1,
} as const;

/** The per-wallet facts each engine computes (names of its columns). */
export type WalletFacts = {
  /** Days from the wallet's first active day to A (0: first seen on A). */
  age: number;
  /** Active days in A−27…A. */
  n28: number;
  /** Active days in A−13…A. */
  n14: number;
  /** Active days in A−55…A−28 (the 28 days before). */
  nBefore: number;
};

/** A threshold no wallet reaches (no candidate): more days than the window holds. */
export const NO_POWER = LIFECYCLE_WINDOWS.lifeDays + 1;

const DAY_MS = 86_400_000;

/**
 * One wallet's facts from its age (days back from A to its first time seen; at least the window's length
 * for a time before it) and the distinct days back from A of its active days (days before the window
 * count nowhere): the one place the facts' windows are counted, for the UTC page (`factsOf`) and a
 * zone's (`walletStageFacts`).
 */
export function factsOfBacks(age: number, backs: readonly number[]): WalletFacts {
  const within = (from: number, to: number) => backs.filter((back) => back >= from && back <= to).length;
  return {
    age,
    n28: within(0, LIFECYCLE_WINDOWS.lifeDays - 1),
    n14: within(0, LIFECYCLE_WINDOWS.recentDays - 1),
    nBefore: within(LIFECYCLE_WINDOWS.lifeDays, 2 * LIFECYCLE_WINDOWS.lifeDays - 1),
  };
}

/** The facts of one wallet as of `asOfDay` from its active UTC days (the wallet page's stage), in TypeScript. */
export function factsOf(activeDays: readonly UtcDay[], asOfDay: UtcDay): WalletFacts | null {
  const asOf = Date.parse(asOfDay);
  const backs = activeDays
    .map((day) => Math.round((asOf - Date.parse(day)) / DAY_MS))
    .filter((days) => days >= 0);
  return backs.length === 0 ? null : factsOfBacks(Math.max(...backs), backs);
}

/** The rules of `stageSql`, for one wallet's facts. */
export function stageOf(facts: WalletFacts, threshold: number | null): LifecycleStage {
  if (facts.age < LIFECYCLE_WINDOWS.newDays) return 'new';
  if (facts.n28 > 0 && facts.age >= 2 * LIFECYCLE_WINDOWS.lifeDays && facts.nBefore === 0)
    return 'resurrected';
  if (facts.n14 > 0 && facts.n28 >= (threshold ?? NO_POWER)) return 'power';
  if (facts.n14 > 0) return 'active';
  if (facts.n28 > 0) return 'at_risk';
  return 'churned';
}

export type LifecycleCounts = Record<LifecycleStage, number> & {
  /** Active days (of the last 28) from which a recently active wallet is Power; null when none is. */
  powerThreshold: number | null;
};

/**
 * The Analytics filters as the Wallets cards take them (docs/wallets.md, "With the Analytics filters"):
 * the sessions that pass `filters` over `range` (ADR 074).
 */
export type SessionMatch = { range: TimeRange; filters: AnalyticsFilters };

/** A UTC day as `YYYY-MM-DD`. */
export type UtcDay = string;

/** Returns that count in a retention cohort: a later connection, or a submitted transaction. */
export type RetentionReturn = 'connected' | 'transacted';
/** The attribution dimensions a cohort can be narrowed to (the first connection's session's landing UTM). */
export type CohortDimension = 'source' | 'medium' | 'campaign';

export type CohortQuery = {
  /** Cohorts start at `from`, one per period, up to `to` (excluded). */
  range: TimeRange;
  periodMs: number;
  /** How many periods after the cohort's own are counted (1…periods). */
  periods: number;
  returnBy: RetentionReturn;
  split: { dimension: CohortDimension; value: string | null } | null;
  /** Returns are read up to here (now). */
  untilMs: number;
  /** The Analytics filters: only wallets whose first connection was in a session passing them over `range`. */
  filters?: AnalyticsFilters;
  /**
   * The project's zone (IANA; default UTC): a period of whole days is that many of its local days, from
   * the local day holding `from` (a 23- or 25-hour day is one day: docs/timezone.md).
   */
  timeZone?: string;
};

/** Whether the periods are local days or weeks of a zone other than UTC. */
export const cohortZoneOf = (query: Pick<CohortQuery, 'periodMs' | 'timeZone'>): string | null =>
  query.timeZone && query.timeZone !== DEFAULT_TIME_ZONE && query.periodMs % DAY_MS === 0
    ? query.timeZone
    : null;

/**
 * Where period `index` (0: the one holding `from`) starts: `from` plus whole periods of elapsed time, or
 * in a zone, the local midnight that many local days after the one starting `from`'s day (`from` itself
 * for the first).
 */
export function periodStartMs(
  query: Pick<CohortQuery, 'range' | 'periodMs' | 'timeZone'>,
  index: number,
): number {
  const zone = cohortZoneOf(query);
  if (!zone) return query.range.fromMs + index * query.periodMs;
  if (index === 0) return query.range.fromMs;
  const firstWallDay = Math.floor(wallClockMs(query.range.fromMs, zone) / DAY_MS) * DAY_MS;
  return instantOfWallClock(firstWallDay + index * query.periodMs, zone);
}

export type CohortRow = {
  /** 0 for the period starting at `from`. */
  index: number;
  size: number;
  /** returned[k − 1]: wallets of the cohort with a return in period k after their cohort's. */
  returned: number[];
};

/** Gas figures per chain, in wei (decimal strings). */
export type ChainGas = {
  chainId: number | null;
  /** Σ gas_used × effective_gas_price of the receipts (confirmed or reverted) logged in the range. */
  gasPaidWei: string;
  /** The same over the reverted receipts alone. */
  gasBurnedWei: string;
  reverted: number;
  /** Transactions with a `failed` stage logged in the range: refused before submission, no gas. */
  failedBeforeSubmission: number;
};

export type FailedCostRow = {
  day: UtcDay;
  chainId: number | null;
  contract: string | null;
  selector: string | null;
  reverted: number;
  gasBurnedWei: string;
};

export type FailedTransactionCost = { chains: ChainGas[]; rows: FailedCostRow[] };

export type FirstTouch = {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  landingPath: string | null;
};

export type WalletProfile = {
  firstSeenMs: number;
  lastSeenMs: number;
  firstConnectedMs: number | null;
  firstTouch: FirstTouch | null;
  countries: string[];
  browsers: string[];
  providers: string[];
  chains: number[];
  transactions: number;
  /** Latest stage `failed`. */
  failedBeforeSubmission: number;
  /** Latest stage `reverted`. */
  reverted: number;
  gas: ChainGas[];
  sessions: number;
  /**
   * Its active UTC days (`YYYY-MM-DD`, ascending): what its lifecycle stage is decided from. Asked with
   * `activeDaysFrom`, its first day and those from then on (the others may be left out).
   */
  activeDays: UtcDay[];
};

/** One event of a wallet's sessions; big numbers as decimal strings. */
export type WalletTimelineEvent = {
  eventId: string;
  sessionId: string;
  timeMs: number;
  type: string;
  /** A custom event's name. */
  eventName: string | null;
  path: string | null;
  walletAddress: string | null;
  walletProvider: string | null;
  chainId: number | null;
  txId: string | null;
  txStage: string | null;
  txHash: string | null;
  txTo: string | null;
  selector: string | null;
  gasUsed: string | null;
  effectiveGasPrice: string | null;
  sigStage: string | null;
  sigMethod: string | null;
  errorSource: string | null;
  errorMessage: string | null;
  errorCode: number | null;
  rpcMethod: string | null;
  incidentId: string | null;
  gasBalance: string | null;
  walletNonce: string | null;
};

/** Where a session stands in a wallet's timeline: its latest event carrying the wallet, then its id. */
export type SessionPosition = { lastMs: number; sessionId: string };

/** One page of a wallet's timeline: `sessions` sessions, those after `after` (newest first) or the newest. */
export type TimelinePage = { sessions: number; after: SessionPosition | null };

export type WalletTimeline = {
  /** Every event of the page's sessions, newest session first, oldest event first within. */
  events: WalletTimelineEvent[];
  /** The page's last session, when an older one exists (the next page starts after it); else null. */
  older: SessionPosition | null;
};

export const WALLET_LIST_SORTS = ['last_seen', 'first_seen', 'transactions', 'failed', 'gas_paid'] as const;
export type WalletListSort = (typeof WALLET_LIST_SORTS)[number];

export type WalletListQuery = {
  /** Wallets any event carried in the range. */
  range: TimeRange;
  /**
   * The lifecycle's as-of day and Power threshold (stage filter and column). Without a threshold the
   * store derives it from the facts the stage column reads, as `lifecycleCounts` does, and gives it on
   * every row (`WalletListRow.powerThreshold`).
   */
  asOfDay: UtcDay;
  powerThreshold?: number | null;
  /** The zone of the as-of day and the stages' days (default UTC). */
  timeZone?: string;
  /** A full address or a prefix of one (lower case, with 0x). */
  search: string | null;
  stage: LifecycleStage | null;
  source: string | null;
  campaign: string | null;
  chainId: number | null;
  country: string | null;
  /**
   * The Analytics filters: only the wallets an event of a passing session carried in the range (the
   * lifecycle card's filtered wallets, docs/wallets.md); absent or empty: all.
   */
  filters?: AnalyticsFilters;
  sort: WalletListSort;
  descending: boolean;
  limit: number;
  /** The last row of the previous page: its sort value and address. */
  after: { value: string; wallet: string } | null;
};

export type WalletListRow = {
  wallet: string;
  firstSeenMs: number;
  lastSeenMs: number;
  /** Transactions of the wallet requested in the range. */
  transactions: number;
  /** Of those, latest stage `failed` or `reverted`. */
  failed: number;
  /** Gas paid in the range by its receipts, wei summed over chains. */
  gasPaidWei: string;
  stage: LifecycleStage;
  source: string | null;
  campaign: string | null;
  /** The Power threshold the stage was decided with, when the query gave none (null: no candidate). */
  powerThreshold?: number | null;
};

export type WalletQuestions = {
  /**
   * Wallets per lifecycle stage as of the day `asOfDay` of `timeZone` (default UTC: `wallet_days`, DuckDB `wallet_active_days`; another
   * zone: its local days, `lifecycleWindow`), with the Power threshold used; with `matching`, only the
   * wallets a passing session carried (their stages and the threshold those of all wallets).
   */
  lifecycleCounts(
    projectId: string,
    asOfDay: UtcDay,
    matching?: SessionMatch,
    timeZone?: string,
  ): Promise<LifecycleCounts>;
  /**
   * One wallet's facts as of the day `asOfDay` of `timeZone` (its local days, `lifecycleWindow`), as
   * `lifecycleCounts` and the Wallets list decide its stage; null when it was not seen by that day.
   */
  walletStageFacts(
    projectId: string,
    wallet: string,
    asOfDay: UtcDay,
    timeZone: string,
  ): Promise<WalletFacts | null>;
  /** Cohorts by first connection and their returns per period. */
  retentionCohorts(projectId: string, query: CohortQuery): Promise<CohortRow[]>;
  /**
   * Gas paid and burned by reverted transactions, per chain, and per day (of `timeZone`, default UTC),
   * chain, contract and function; with `filters`, of the transactions whose request's session passes them.
   */
  failedTransactionCost(
    projectId: string,
    range: TimeRange,
    filters?: AnalyticsFilters,
    timeZone?: string,
  ): Promise<FailedTransactionCost>;
  /**
   * One wallet's profile of all time; null when no event of the project carried it. With
   * `activeDaysFrom`, its `activeDays` may leave out the days before that day except its first: all that
   * `factsOf` asks of them for an as-of day at least 55 days later.
   */
  walletProfile(projectId: string, wallet: string, activeDaysFrom?: UtcDay): Promise<WalletProfile | null>;
  /** One page of the wallet's sessions (by their latest event carrying it, newest first) with every event. */
  walletTimeline(projectId: string, wallet: string, page: TimelinePage): Promise<WalletTimeline>;
  /** One page of the wallets seen in the range, filtered and sorted. */
  walletList(projectId: string, query: WalletListQuery): Promise<WalletListRow[]>;
};
