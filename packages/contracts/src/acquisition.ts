import { z } from 'zod';
import { labelText } from './text.ts';

/**
 * What the acquisition GraphQL queries answer (`apps/server/src/modules/acquisition/schema.ts`), for the
 * console to parse. Definitions of every figure: `docs/acquisition-and-incidents.md`.
 *
 * Times are ISO 8601 UTC strings; shares and rates are fractions (0.27 = 27 %), like `analytics.ts`.
 */

const isoTime = z.string();
const filterValues = z.array(labelText(256).min(1)).max(100);

/**
 * The filter bar. Each list is "any of these values"; an absent or empty list does not filter. Lists
 * combine with AND. Keep them in the URL under the same names (comma-separated) so a view can be shared.
 */
export const AcquisitionFiltersSchema = z
  .object({
    countries: filterValues.optional(),
    terms: filterValues.optional(),
    sources: filterValues.optional(),
    mediums: filterValues.optional(),
    campaigns: filterValues.optional(),
    contents: filterValues.optional(),
    browsers: filterValues.optional(),
    walletProviders: filterValues.optional(),
  })
  .strict();
export type AcquisitionFilters = z.infer<typeof AcquisitionFiltersSchema>;
export const AcquisitionFilterKeys = [
  'countries',
  'terms',
  'sources',
  'mediums',
  'campaigns',
  'contents',
  'browsers',
  'walletProviders',
] as const satisfies readonly (keyof AcquisitionFilters)[];
export type AcquisitionFilterKey = (typeof AcquisitionFilterKeys)[number];

export const FunnelStepKeys = [
  'totalUsers',
  'haveWallets',
  'haveConnectedWallet',
  'haveExecutedTransaction',
  'haveExecutedMultipleTransactions',
  'signedData',
] as const;
export type FunnelStepKey = (typeof FunnelStepKeys)[number];

/** The tiles' titles, in the spec's words. */
export const FunnelStepLabels: Record<FunnelStepKey, string> = {
  totalUsers: 'Total Users',
  haveWallets: 'Have Wallets',
  haveConnectedWallet: 'Have Connected Wallet',
  haveExecutedTransaction: 'Have Executed a Transaction',
  haveExecutedMultipleTransactions: 'Have Executed Multiple TXs',
  signedData: 'Signed Data',
};

export const FunnelStepSchema = z.object({
  key: z.enum(FunnelStepKeys),
  label: z.string(),
  /** Distinct users (the SDK's anonymous user id). */
  users: z.number(),
  /** users / Total Users; null when there are no users. 1 for Total Users itself. */
  share: z.number().nullable(),
});
export type FunnelStep = z.infer<typeof FunnelStepSchema>;

/** `acquisitionFunnel`: the six tiles, in order. */
export const AcquisitionFunnelSchema = z.object({
  from: isoTime,
  to: isoTime,
  steps: z.array(FunnelStepSchema),
});
export type AcquisitionFunnel = z.infer<typeof AcquisitionFunnelSchema>;

export const AttributionDimensions = ['campaign', 'source', 'medium', 'content', 'term'] as const;
export type AttributionDimension = (typeof AttributionDimensions)[number];
/** The first column's heading per tab. */
export const AttributionDimensionLabels: Record<AttributionDimension, string> = {
  campaign: 'Campaigns',
  source: 'Sources',
  medium: 'Mediums',
  content: 'Contents',
  term: 'Terms',
};

export const AttributionRowKinds = ['total', 'value', 'unattributed'] as const;

/** One row of the Attributions table. Counts are raw so the console can show the fractions' parts. */
export const AttributionRowSchema = z.object({
  kind: z.enum(AttributionRowKinds),
  /** The UTM value; null for Total and Unattributed. */
  value: z.string().nullable(),
  /** "+ Wallets": wallets whose first connection ever happened in the range, in a session of this row. */
  newWallets: z.number(),
  /** "Connects": wallet_connected events. */
  connects: z.number(),
  /** "TXS": transactions that reached `submitted`. */
  transactions: z.number(),
  sessions: z.number(),
  users: z.number(),
  sessionsWithTransaction: z.number(),
  usersWithTransaction: z.number(),
  sessionsWithConnect: z.number(),
  usersWithConnect: z.number(),
  /** "TX(S) %" = sessionsWithTransaction / sessions; null without sessions. */
  transactionSessionRate: z.number().nullable(),
  /** "TX(U) %" = usersWithTransaction / users. */
  transactionUserRate: z.number().nullable(),
  /** "WConn(S) %" = sessionsWithConnect / sessions. */
  connectSessionRate: z.number().nullable(),
  /** "WConn(U) %" = usersWithConnect / users. */
  connectUserRate: z.number().nullable(),
});
export type AttributionRow = z.infer<typeof AttributionRowSchema>;

/**
 * `attribution`: rows are Total first, then one per value (most sessions first, then by value), then
 * Unattributed (always present, possibly all zeros). The console sorts by column on its side.
 */
export const AttributionSchema = z.object({
  dimension: z.enum(AttributionDimensions),
  from: isoTime,
  to: isoTime,
  rows: z.array(AttributionRowSchema),
});
export type Attribution = z.infer<typeof AttributionSchema>;

export const FilterOptionSchema = z.object({
  value: z.string(),
  /** Distinct users with an event carrying this value in the range. */
  users: z.number(),
});
export type FilterOption = z.infer<typeof FilterOptionSchema>;

/** `acquisitionFilterOptions`: the values the multi-selects offer, most users first. */
export const AcquisitionFilterOptionsSchema = z.object({
  countries: z.array(FilterOptionSchema),
  terms: z.array(FilterOptionSchema),
  sources: z.array(FilterOptionSchema),
  mediums: z.array(FilterOptionSchema),
  campaigns: z.array(FilterOptionSchema),
  contents: z.array(FilterOptionSchema),
  browsers: z.array(FilterOptionSchema),
  walletProviders: z.array(FilterOptionSchema),
});
export type AcquisitionFilterOptions = z.infer<typeof AcquisitionFilterOptionsSchema>;
