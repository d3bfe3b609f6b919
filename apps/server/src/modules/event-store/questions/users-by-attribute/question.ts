import type { AnalyticsFilters, Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';

/**
 * Distinct users with any event in the range per country or browser (null: unknown), most users first
 * (docs/analytics.md#charts-and-tables). Rows: ShareRow (wallet-providers/question.ts).
 */
export type UsersByAttributeQuestions = {
  usersByCountry(
    projectId: string,
    range: TimeRange,
    limit: number,
    filters?: AnalyticsFilters,
  ): Promise<Share[]>;
  usersByBrowser(
    projectId: string,
    range: TimeRange,
    limit: number,
    filters?: AnalyticsFilters,
  ): Promise<Share[]>;
};

/** Enrichment columns a users chart can be split by; a closed list, so the column name is never input. */
export type UserAttribute = 'browser' | 'country';
