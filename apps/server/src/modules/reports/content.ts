import type { AcquisitionFunnel, Attribution } from '@polyflow/contracts/acquisition';
import type { AnalyticsOverview } from '@polyflow/contracts/analytics';
import { type ChangeKind, type Comparison, compare } from '@polyflow/contracts/comparison';
import type { IncidentList, IncidentRow } from '@polyflow/contracts/incidents';
import type { ReportPeriod } from './periods.ts';

/**
 * What a report asks of the dashboard services (app.ts hands them over): the console's own questions, so
 * that every figure of a report is one the console shows for the same range, with the same previous period
 * (`previous: true`, docs/analytics.md "The previous period"). Each checks the caller's membership.
 */
export type ReportSources = {
  overview(
    userId: string,
    projectId: string,
    input: { from: string; to: string; previous?: boolean },
  ): Promise<AnalyticsOverview>;
  funnel(
    userId: string,
    input: { projectId: string; from: string; to: string; previous?: boolean },
  ): Promise<AcquisitionFunnel>;
  attribution(
    userId: string,
    input: { projectId: string; from: string; to: string; previous?: boolean; dimension: string },
  ): Promise<Attribution>;
  incidents(
    userId: string,
    input: {
      projectId: string;
      from: string;
      to: string;
      statuses: readonly string[];
      first: number;
      after?: string | null;
    },
  ): Promise<IncidentList>;
};

/** One figure of the report with its comparison (the console's `compare`). */
export type Figure = {
  label: string;
  value: number | null;
  previous: number | null;
  kind: ChangeKind;
  /** Which way is good news (a fail rate going down). */
  better: 'up' | 'down';
  comparison: Comparison;
};

export type RankedRow = { name: string; value: number; previous: number | null; comparison: Comparison };

export type ReportContent = {
  period: ReportPeriod;
  /** The previous period the changes are against, as the console computes it (same length, just before). */
  previous: { fromMs: number; toMs: number };
  figures: Figure[];
  /** Top UTM sources by visits (sessions). */
  topSources: RankedRow[];
  /** Top incidents by occurrences in the period (open or resolved; ignored ones left out). */
  topIncidents: (RankedRow & { id: string; severity: IncidentRow['severity'] })[];
};

export const TOP_ROWS = 5;
/** Statuses of the incidents a report lists: what happened, except what the team chose to ignore. */
const INCIDENT_STATUSES = ['open', 'resolved'] as const;
const INCIDENT_PAGE = 100;
/** Pages read at most per period (10,000 incidents): enough to rank any real project's week. */
const MAX_INCIDENT_PAGES = 100;

function figure(
  label: string,
  value: number | null,
  previous: number | null,
  kind: ChangeKind,
  better: 'up' | 'down' = 'up',
): Figure {
  return { label, value, previous, kind, better, comparison: compare(value, previous, kind) };
}

async function allIncidents(
  sources: ReportSources,
  userId: string,
  range: { projectId: string; from: string; to: string },
): Promise<IncidentRow[]> {
  const rows: IncidentRow[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_INCIDENT_PAGES; page++) {
    const list: IncidentList = await sources.incidents(userId, {
      ...range,
      statuses: INCIDENT_STATUSES,
      first: INCIDENT_PAGE,
      after,
    });
    rows.push(...list.rows);
    after = list.nextCursor;
    if (!after) break;
  }
  return rows;
}

/** The report of one project and period, read as `userId` (a member: the services check it). */
export async function gatherReport(
  sources: ReportSources,
  userId: string,
  projectId: string,
  period: ReportPeriod,
): Promise<ReportContent> {
  const range = { from: new Date(period.fromMs).toISOString(), to: new Date(period.toMs).toISOString() };
  const scoped = { projectId, ...range };
  const [overview, before, funnel, funnelBefore, bySource, bySourceBefore] = await Promise.all([
    sources.overview(userId, projectId, range),
    sources.overview(userId, projectId, { ...range, previous: true }),
    sources.funnel(userId, scoped),
    sources.funnel(userId, { ...scoped, previous: true }),
    sources.attribution(userId, { ...scoped, dimension: 'source' }),
    sources.attribution(userId, { ...scoped, dimension: 'source', previous: true }),
  ]);
  // The previous period's incidents: the same range the other questions shifted (their `from`/`to`).
  const previousRange = { projectId, from: before.from, to: before.to };
  const [incidents, incidentsBefore] = await Promise.all([
    allIncidents(sources, userId, scoped),
    allIncidents(sources, userId, previousRange),
  ]);

  const totalOf = (attribution: Attribution) => attribution.rows.find((row) => row.kind === 'total');
  const usersOf = (steps: AcquisitionFunnel) =>
    steps.steps.find((step) => step.key === 'totalUsers')?.users ?? 0;
  const figures = [
    figure('Visits', totalOf(bySource)?.sessions ?? 0, totalOf(bySourceBefore)?.sessions ?? 0, 'relative'),
    figure('Users', usersOf(funnel), usersOf(funnelBefore), 'relative'),
    figure('Connected wallets', overview.connectedWallets, before.connectedWallets, 'relative'),
    figure('Transactions', overview.totalTransactions, before.totalTransactions, 'relative'),
    figure(
      'Transaction fail rate',
      overview.transactionFailRate,
      before.transactionFailRate,
      'points',
      'down',
    ),
  ];

  const sessionsBefore = new Map(
    bySourceBefore.rows.filter((row) => row.kind === 'value').map((row) => [row.value, row.sessions]),
  );
  // Rows come most sessions first (then by value), as the Acquisition table's default order.
  const topSources = bySource.rows
    .filter((row) => row.kind === 'value' && row.sessions > 0)
    .slice(0, TOP_ROWS)
    .map((row) => {
      const previous = sessionsBefore.get(row.value) ?? 0;
      return {
        name: row.value ?? '',
        value: row.sessions,
        previous,
        comparison: compare(row.sessions, previous, 'relative'),
      };
    });

  const occurrencesBefore = new Map(incidentsBefore.map((row) => [row.id, row.occurrences]));
  const topIncidents = [...incidents]
    .sort((a, b) => b.occurrences - a.occurrences || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, TOP_ROWS)
    .map((row) => {
      const previous = occurrencesBefore.get(row.id) ?? 0;
      return {
        id: row.id,
        name: row.title,
        severity: row.severity,
        value: row.occurrences,
        previous,
        comparison: compare(row.occurrences, previous, 'relative'),
      };
    });

  return {
    period,
    previous: { fromMs: Date.parse(before.from), toMs: Date.parse(before.to) },
    figures,
    topSources,
    topIncidents,
  };
}
