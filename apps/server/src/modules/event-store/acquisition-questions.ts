import type {
  AcquisitionFilterOptions,
  AcquisitionFilters,
  AttributionDimension,
  FunnelStepKey,
} from '@polyflow/contracts/acquisition';
import type { TimeRange } from '../../reading/time-range.ts';

/** What the Acquisition screen asks the event store. Definitions: docs/acquisition-and-incidents.md. */

export type FunnelCounts = Record<FunnelStepKey, number>;

/** The raw counts of one attribution row; the service adds the rates. `value` null: Total (isTotal) or Unattributed. */
export type AttributionCounts = {
  isTotal: boolean;
  value: string | null;
  newWallets: number;
  connects: number;
  transactions: number;
  sessions: number;
  users: number;
  sessionsWithTransaction: number;
  usersWithTransaction: number;
  sessionsWithConnect: number;
  usersWithConnect: number;
};

export type AcquisitionQuestions = {
  /** Distinct users per funnel step over the events in the range (of the sessions passing the filters). */
  funnelCounts(projectId: string, range: TimeRange, filters: AcquisitionFilters): Promise<FunnelCounts>;
  /** Sessions in the range grouped by their landing UTM value of the dimension, plus the Total row. */
  attributionCounts(
    projectId: string,
    range: TimeRange,
    dimension: AttributionDimension,
    filters: AcquisitionFilters,
  ): Promise<AttributionCounts[]>;
  /** Every filterable value seen in the range with its distinct users (at most MAX_FILTER_OPTIONS each). */
  filterOptions(projectId: string, range: TimeRange): Promise<AcquisitionFilterOptions>;
};
