import type { AnalyticsFilters, Share } from '@polyflow/contracts/analytics';
import type { TimeRange } from '../../../../reading/time-range.ts';

/**
 * Distinct users with any event in the range per country, browser, operating system, device type or
 * landing UTM source (null: unknown or none), most users first (docs/analytics.md#charts-and-tables).
 * Rows: ShareRow (wallet-providers/question.ts).
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
  /** The same per operating system, device type or landing UTM source. */
  usersBy(
    attribute: ExtraUserAttribute,
    projectId: string,
    range: TimeRange,
    limit: number,
    filters?: AnalyticsFilters,
  ): Promise<Share[]>;
};

/** The attributes `usersBy` splits by: the events' columns, a closed list (never input). */
export const EXTRA_USER_ATTRIBUTES = ['os', 'device', 'utm_source'] as const;
export type ExtraUserAttribute = (typeof EXTRA_USER_ATTRIBUTES)[number];

/** Enrichment columns a users chart can be split by; a closed list, so the column name is never input. */
export type UserAttribute = 'browser' | 'country' | ExtraUserAttribute;
