import type { AnalyticsFilters } from '@polyflow/contracts/analytics';

/**
 * The range every analytics query is asked for: the project, a resolved period (ISO instants) and the
 * screen's filters (docs/analytics.md, "Filters"; absent or empty: none).
 */
export interface AnalyticsRange {
  projectId: string;
  from: string;
  to: string;
  filters?: AnalyticsFilters;
}

/**
 * Query keys start with the project id, so choosing another project asks everything again (and a
 * project's cached figures never show under another one).
 */
export const analyticsKeys = {
  all: (projectId: string) => ['projects', projectId, 'analytics'] as const,
  of: (name: string, { projectId, from, to, filters }: AnalyticsRange, extra: Record<string, unknown> = {}) =>
    [
      'projects',
      projectId,
      'analytics',
      name,
      { from, to, ...(filters ? { filters } : {}), ...extra },
    ] as const,
};

/**
 * Every slice the server has (its maximum; countries and browsers are far fewer): the chart shows the
 * first ones and an "Other" slice, and shares are of the whole (lib/top-n.ts). The server sorts by value.
 */
export const SHARE_LIMIT = 250;
