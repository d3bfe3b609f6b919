import {
  type AcquisitionFilterOptions,
  AcquisitionFiltersSchema,
  type AcquisitionFunnel,
  type Attribution,
  type AttributionDimension,
  AttributionDimensions,
  type AttributionRow,
  FunnelStepKeys,
  FunnelStepLabels,
} from '@polyflow/contracts/acquisition';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { parseFilters } from '../../reading/filters.ts';
import { InputError } from '../../reading/input-error.ts';
import {
  type ComparableRangeInput,
  comparedRange,
  needsSpan,
  resolveRange,
  type TimeRange,
} from '../../reading/time-range.ts';
import type { AcquisitionQuestions, AttributionCounts } from '../event-store/acquisition-questions.ts';
import type { AnalyticsQuestions } from '../event-store/analytics-questions.ts';

export type AcquisitionService = ReturnType<typeof createAcquisitionService>;

export type AcquisitionQuery = ComparableRangeInput & { projectId: string; filters?: unknown };
export type AttributionQuery = AcquisitionQuery & { dimension: string };

export type AcquisitionServiceDeps = {
  projects: ProjectAccess;
  /** The event store's read side: the questions this screen asks (and the event span for "all time"). */
  store: AcquisitionQuestions & Pick<AnalyticsQuestions, 'eventSpan'>;
  clock?: Clock;
};

const iso = (ms: number) => new Date(ms).toISOString();
const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

function parseDimension(input: string): AttributionDimension {
  const dimension = AttributionDimensions.find((known) => known === input);
  if (!dimension) {
    throw new InputError(
      `Invalid dimension "${input.slice(0, 40)}": use one of ${AttributionDimensions.join(', ')}.`,
    );
  }
  return dimension;
}

function toRow(
  kind: AttributionRow['kind'],
  counts: Omit<AttributionCounts, 'isTotal' | 'value'>,
  value: string | null,
) {
  return {
    kind,
    value,
    newWallets: counts.newWallets,
    connects: counts.connects,
    transactions: counts.transactions,
    sessions: counts.sessions,
    users: counts.users,
    sessionsWithTransaction: counts.sessionsWithTransaction,
    usersWithTransaction: counts.usersWithTransaction,
    sessionsWithConnect: counts.sessionsWithConnect,
    usersWithConnect: counts.usersWithConnect,
    transactionSessionRate: rate(counts.sessionsWithTransaction, counts.sessions),
    transactionUserRate: rate(counts.usersWithTransaction, counts.users),
    connectSessionRate: rate(counts.sessionsWithConnect, counts.sessions),
    connectUserRate: rate(counts.usersWithConnect, counts.users),
  } satisfies AttributionRow;
}

const EMPTY_COUNTS: Omit<AttributionCounts, 'isTotal' | 'value'> = {
  newWallets: 0,
  connects: 0,
  transactions: 0,
  sessions: 0,
  users: 0,
  sessionsWithTransaction: 0,
  usersWithTransaction: 0,
  sessionsWithConnect: 0,
  usersWithConnect: 0,
};

/** The funnel, the attribution table and the filter values; every query answers only the project's owner. */
export function createAcquisitionService({ projects, store, clock = systemClock }: AcquisitionServiceDeps) {
  /** Owner check, then the range; with `previous`, the period before it (the same questions, shifted). */
  async function ownedRange(userId: string, input: AcquisitionQuery): Promise<TimeRange> {
    const { timeZone } = await projects.getProjectFor(userId, input.projectId);
    // Parse the range before reading the span, so a malformed one fails without touching the store.
    resolveRange(input, null, clock().getTime());
    const span = needsSpan(input) ? await store.eventSpan(input.projectId) : null;
    const nowMs = clock().getTime();
    // "All time" starts at the local midnight of the project's first event (docs/timezone.md).
    return comparedRange(resolveRange(input, span, nowMs, timeZone), input.previous === true, nowMs);
  }

  return {
    async funnel(userId: string, input: AcquisitionQuery): Promise<AcquisitionFunnel> {
      const filters = parseFilters(AcquisitionFiltersSchema, input.filters);
      const range = await ownedRange(userId, input);
      const counts = await store.funnelCounts(input.projectId, range, filters);
      return {
        from: iso(range.fromMs),
        to: iso(range.toMs),
        steps: FunnelStepKeys.map((key) => ({
          key,
          label: FunnelStepLabels[key],
          users: counts[key],
          share: rate(counts[key], counts.totalUsers),
        })),
      };
    },

    async attribution(userId: string, input: AttributionQuery): Promise<Attribution> {
      const dimension = parseDimension(input.dimension);
      const filters = parseFilters(AcquisitionFiltersSchema, input.filters);
      const range = await ownedRange(userId, input);
      const groups = await store.attributionCounts(input.projectId, range, dimension, filters);
      const total = groups.find((group) => group.isTotal) ?? EMPTY_COUNTS;
      const unattributed = groups.find((group) => !group.isTotal && group.value === null) ?? EMPTY_COUNTS;
      const values = groups
        .filter(
          (group): group is AttributionCounts & { value: string } => !group.isTotal && group.value !== null,
        )
        .sort((a, b) => b.sessions - a.sessions || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
      return {
        dimension,
        from: iso(range.fromMs),
        to: iso(range.toMs),
        rows: [
          toRow('total', total, null),
          ...values.map((group) => toRow('value', group, group.value)),
          toRow('unattributed', unattributed, null),
        ],
      };
    },

    async filterOptions(userId: string, input: AcquisitionQuery): Promise<AcquisitionFilterOptions> {
      const range = await ownedRange(userId, input);
      return store.filterOptions(input.projectId, range);
    },
  };
}
