import type { ActiveDaysQuestion } from './questions/active-days/question.ts';
import type { AverageGasPriceQuestion } from './questions/average-gas-price/question.ts';
import type { ConnectedWalletsQuestion } from './questions/connected-wallets/question.ts';
import type { ContractFunctionsQuestion } from './questions/contract-functions/question.ts';
import type { EventSpanQuestion } from './questions/event-span/question.ts';
import type { FilteredOverviewQuestion } from './questions/filtered-overview/question.ts';
import type { NewWalletsQuestion } from './questions/new-wallets/question.ts';
import type { RecentActivityQuestion } from './questions/recent-activity/question.ts';
import type { RevertErrorNearQuestion } from './questions/revert-error-near/question.ts';
import type { TopPagesQuestion } from './questions/top-pages/question.ts';
import type { TopReferrersQuestion } from './questions/top-referrers/question.ts';
import type { TransactionCountQuestion } from './questions/transaction-count/question.ts';
import type { TransactionEventsQuestion } from './questions/transaction-events/question.ts';
import type { TransactionHistoryQuestion } from './questions/transaction-history/question.ts';
import type { TransactionOutcomesQuestion } from './questions/transaction-outcomes/question.ts';
import type { UsersByAttributeQuestions } from './questions/users-by-attribute/question.ts';
import type { WalletCountsQuestion } from './questions/wallet-counts/question.ts';
import type { WalletProvidersQuestion } from './questions/wallet-providers/question.ts';

/**
 * What the Analytics (and Live) screens ask the event store, by name: each question's signature, result
 * and row schema live in its folder, questions/<question>/question.ts. Definitions: docs/analytics.md. A
 * bucketed question answers bucket index → value for the buckets that have one (the service fills the gaps).
 */
export type AnalyticsQuestions = EventSpanQuestion &
  ConnectedWalletsQuestion &
  NewWalletsQuestion &
  TransactionOutcomesQuestion &
  AverageGasPriceQuestion &
  WalletCountsQuestion &
  ActiveDaysQuestion &
  FilteredOverviewQuestion &
  ContractFunctionsQuestion &
  WalletProvidersQuestion &
  UsersByAttributeQuestions &
  TopPagesQuestion &
  TopReferrersQuestion &
  RecentActivityQuestion &
  TransactionHistoryQuestion &
  TransactionCountQuestion &
  TransactionEventsQuestion &
  RevertErrorNearQuestion;

export type { ActiveDays } from './questions/active-days/question.ts';
export type { ContractFunctionRow } from './questions/contract-functions/question.ts';
export type { FilteredOverview } from './questions/filtered-overview/question.ts';
export type { RecentActivity } from './questions/recent-activity/question.ts';
export type { PageRow } from './questions/top-pages/question.ts';
export type { ReferrerRow } from './questions/top-referrers/question.ts';
export type { TransactionStageEvent } from './questions/transaction-events/question.ts';
export type {
  HistoryFilter,
  HistoryPage,
  TransactionHistoryRow,
} from './questions/transaction-history/question.ts';
export { isFiltered } from './questions/transaction-history/question.ts';
export type { TransactionOutcomes } from './questions/transaction-outcomes/question.ts';
export type { ExtraUserAttribute } from './questions/users-by-attribute/question.ts';
export type { WalletCounts } from './questions/wallet-counts/question.ts';
