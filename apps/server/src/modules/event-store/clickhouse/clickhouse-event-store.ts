import type { EventStore, EventStoreFactory } from '../event-store.ts';
import { createFairScheduler } from '../fair-scheduler.ts';
import { activeDays } from '../questions/active-days/clickhouse.ts';
import { activeUsersDuring } from '../questions/active-users-during/clickhouse.ts';
import { alertIncidentOccurrences } from '../questions/alert-incident-occurrences/clickhouse.ts';
import { alertLastEvents } from '../questions/alert-last-events/clickhouse.ts';
import { alertTxOutcomes } from '../questions/alert-tx-outcomes/clickhouse.ts';
import { attributionCounts } from '../questions/attribution-counts/clickhouse.ts';
import { averageGasPrice } from '../questions/average-gas-price/clickhouse.ts';
import { connectedWallets } from '../questions/connected-wallets/clickhouse.ts';
import { contractFunctions } from '../questions/contract-functions/clickhouse.ts';
import { customEventBreakdown } from '../questions/custom-event-breakdown/clickhouse.ts';
import { customEventCounts } from '../questions/custom-event-counts/clickhouse.ts';
import { customEventSeries } from '../questions/custom-event-series/clickhouse.ts';
import { customEventVocabulary } from '../questions/custom-event-vocabulary/clickhouse.ts';
import { customFunnel } from '../questions/custom-funnel/clickhouse.ts';
import { eventSpan } from '../questions/event-span/clickhouse.ts';
import { failedTransactionCost as failedTransactionCostQuestion } from '../questions/failed-transaction-cost/clickhouse.ts';
import { filterOptions } from '../questions/filter-options/clickhouse.ts';
import { filteredOverview } from '../questions/filtered-overview/clickhouse.ts';
import { findTxEvent } from '../questions/find-tx-event/clickhouse.ts';
import { funnelCounts } from '../questions/funnel-counts/clickhouse.ts';
import { goalAttribution } from '../questions/goal-attribution/clickhouse.ts';
import { goalConversions } from '../questions/goal-conversions/clickhouse.ts';
import { incidentReleases } from '../questions/incident-releases/clickhouse.ts';
import { incidentSummaries, incidentSummariesAndLives } from '../questions/incident-summaries/clickhouse.ts';
import { integrationSummary } from '../questions/integration-summary/clickhouse.ts';
import {
  lifecycleCounts as lifecycleCountsQuestion,
  walletStageFacts,
} from '../questions/lifecycle-stages/clickhouse.ts';
import { newReleaseOccurrences } from '../questions/new-release-occurrences/clickhouse.ts';
import { newWallets } from '../questions/new-wallets/clickhouse.ts';
import { occurrenceById } from '../questions/occurrence-by-id/clickhouse.ts';
import { recentActivity } from '../questions/recent-activity/clickhouse.ts';
import { retentionCohorts as retentionCohortsQuestion } from '../questions/retention-cohorts/clickhouse.ts';
import { revertErrorNear } from '../questions/revert-error-near/clickhouse.ts';
import { sessionTrail } from '../questions/session-trail/clickhouse.ts';
import { topPages } from '../questions/top-pages/clickhouse.ts';
import { topReferrers } from '../questions/top-referrers/clickhouse.ts';
import { transactionCount } from '../questions/transaction-count/clickhouse.ts';
import { transactionEvents } from '../questions/transaction-events/clickhouse.ts';
import { transactionHistory } from '../questions/transaction-history/clickhouse.ts';
import { transactionOutcomes } from '../questions/transaction-outcomes/clickhouse.ts';
import { usersBy, usersByBrowser, usersByCountry } from '../questions/users-by-attribute/clickhouse.ts';
import { walletCounts } from '../questions/wallet-counts/clickhouse.ts';
import { walletList as walletListQuestion } from '../questions/wallet-list/clickhouse.ts';
import { walletProfile as walletProfileQuestion } from '../questions/wallet-profile/clickhouse.ts';
import { walletProviders } from '../questions/wallet-providers/clickhouse.ts';
import { walletTimeline as walletTimelineQuestion } from '../questions/wallet-timeline/clickhouse.ts';
import { type ClickHouse, connectClickHouse, QUERY_SLOTS, scheduledFor } from './client.ts';
import { loadCopiedRows } from './copied-rows.ts';
import { createEventWriter } from './event-writer.ts';
import { exportEvents } from './export-events.ts';
import { exportText } from './export-text.ts';
import { readProjectEvents } from './project-events.ts';
import { migrate } from './schema.ts';

/** The alert rules' questions (every project's windows at once) take their turns under this name. */
const ALERT_RULES = '(alert rules)';

/** A migration's copy of 10 M events took minutes through chdb on a busy 2-core machine. */
const MIGRATION_TIMEOUT_MS = 3_600_000;

/** The ClickHouse adapter, with the connection tests and tools may query directly. */
export type ClickHouseEventStore = EventStore & {
  clickhouse: ClickHouse;
  /** Inserts a copy file of `copy-events` (copied-rows.ts): the admin command's target, not the port's. */
  loadCopiedRows(file: string): Promise<void>;
};

/**
 * The event store in a ClickHouse database (CLICKHOUSE_URL: server, database and credentials). The schema
 * is created or migrated on start (schema.ts); loads and deletes go one at a time; questions run a few at
 * a time, in turns per project, an export's pages or windows one at a time node-wide (ADR 091).
 */
export async function createClickHouseEventStore(
  url: string,
  options: { exportPageRows?: number; querySlots?: { slots: number; maxLong: number } } = {},
): Promise<ClickHouseEventStore> {
  // Migrations on a connection of their own: a version that adds a derived table copies the events
  // already stored into it, which can outlast a question's timeout on a large store (ADR 026).
  const migrator = await connectClickHouse(url, { requestTimeoutMs: MIGRATION_TIMEOUT_MS });
  try {
    await migrate(migrator);
  } finally {
    await migrator.close();
  }
  const clickhouse = await connectClickHouse(url);
  const writer = createEventWriter(clickhouse);
  // The questions' and exports' queries take turns per project (client.ts QUERY_SLOTS, ADR 091).
  const scheduler = createFairScheduler(options.querySlots ?? QUERY_SLOTS);
  const forProject = (projectId: string) => scheduledFor(clickhouse, scheduler, projectId);
  const forExport = (projectId: string) => scheduledFor(clickhouse, scheduler, projectId, true);
  let isClosed = false;

  return {
    clickhouse,
    loadCopiedRows: (file) => loadCopiedRows(clickhouse, file),
    loadSegment: writer.loadSegment,
    isRecordError: writer.isRecordError,
    deleteProjectEvents: writer.deleteProjectEvents,
    deleteEventsBefore: writer.deleteEventsBefore,
    deleteWalletEvents: writer.deleteWalletEvents,
    deleteUserEvents: writer.deleteUserEvents,

    integrationSummary: (projectId, since) => integrationSummary(forProject(projectId), projectId, since),
    findTxEvent: (projectId, id) => findTxEvent(forProject(projectId), projectId, id),
    projectEvents: (projectId) => readProjectEvents(forExport(projectId), projectId),
    exportEvents: (projectId, range) =>
      range.text
        ? exportText(forExport(projectId), projectId, range, range.text, options.exportPageRows)
        : exportEvents(forExport(projectId), projectId, range, options.exportPageRows),

    eventSpan: (projectId) => eventSpan(forProject(projectId), projectId),
    alertTxOutcomes: (windows) => alertTxOutcomes(forProject(ALERT_RULES), windows),
    alertIncidentOccurrences: (windows) => alertIncidentOccurrences(forProject(ALERT_RULES), windows),
    alertLastEvents: (windows) => alertLastEvents(forProject(ALERT_RULES), windows),
    connectedWallets: (projectId, range, filters) =>
      connectedWallets(forProject(projectId), projectId, range, filters),
    newWallets: (projectId, range, filters) => newWallets(forProject(projectId), projectId, range, filters),
    transactionOutcomes: (projectId, range, filters) =>
      transactionOutcomes(forProject(projectId), projectId, range, filters),
    averageGasPrice: (projectId, range, chainId, filters) =>
      averageGasPrice(forProject(projectId), projectId, range, chainId, filters),
    walletCounts: (projectId, range, filters) =>
      walletCounts(forProject(projectId), projectId, range, filters),
    activeDays: (projectId, range, previousRange, timeZone, filters) =>
      activeDays(forProject(projectId), projectId, range, previousRange, timeZone, filters),
    filteredOverview: (projectId, range, previousRange, timeZone, filters) =>
      filteredOverview(forProject(projectId), projectId, range, previousRange, timeZone, filters),
    contractFunctions: (projectId, range, limit, filters) =>
      contractFunctions(forProject(projectId), projectId, range, limit, filters),
    walletProviders: (projectId, range, filters) =>
      walletProviders(forProject(projectId), projectId, range, filters),
    usersByCountry: (projectId, range, limit, filters) =>
      usersByCountry(forProject(projectId), projectId, range, limit, filters),
    usersByBrowser: (projectId, range, limit, filters) =>
      usersByBrowser(forProject(projectId), projectId, range, limit, filters),
    usersBy: (attribute, projectId, range, limit, filters) =>
      usersBy(attribute, forProject(projectId), projectId, range, limit, filters),
    topPages: (projectId, range, limit, filters) =>
      topPages(forProject(projectId), projectId, range, limit, filters),
    customEventCounts: (projectId, range) => customEventCounts(forProject(projectId), projectId, range),
    customFunnel: (projectId, range, funnel, split) =>
      customFunnel(forProject(projectId), projectId, range, funnel, split),
    goalConversions: (projectId, range, goals) =>
      goalConversions(forProject(projectId), projectId, range, goals),
    goalAttribution: (projectId, range, dimension, goal, filters) =>
      goalAttribution(forProject(projectId), projectId, range, dimension, goal, filters),
    customEventVocabulary: (projectId) => customEventVocabulary(forProject(projectId), projectId),
    customEventBreakdown: (projectId, range, name, key, limit) =>
      customEventBreakdown(forProject(projectId), projectId, range, name, key, limit),
    customEventSeries: (projectId, range, name, timeZone) =>
      customEventSeries(forProject(projectId), projectId, range, name, timeZone),
    topReferrers: (projectId, range, limit, filters) =>
      topReferrers(forProject(projectId), projectId, range, limit, filters),
    recentActivity: (projectId, range) => recentActivity(forProject(projectId), projectId, range),
    transactionHistory: (projectId, range, page, filter) =>
      transactionHistory(forProject(projectId), projectId, range, page, filter),
    transactionCount: (projectId, range, filter) =>
      transactionCount(forProject(projectId), projectId, range, filter),
    transactionEvents: (projectId, hashOrId) => transactionEvents(forProject(projectId), projectId, hashOrId),
    revertErrorNear: (projectId, around) => revertErrorNear(forProject(projectId), projectId, around),

    funnelCounts: (projectId, range, filters) =>
      funnelCounts(forProject(projectId), projectId, range, filters),
    attributionCounts: (projectId, range, dimension, filters) =>
      attributionCounts(forProject(projectId), projectId, range, dimension, filters),
    filterOptions: (projectId, range) => filterOptions(forProject(projectId), projectId, range),

    incidentSummaries: (projectId, range, options) =>
      incidentSummaries(forProject(projectId), projectId, range, options),
    incidentSummariesAndLives: (projectId, range, livesToMs, options) =>
      incidentSummariesAndLives(forProject(projectId), projectId, range, livesToMs, options),
    activeUsersDuring: (projectId, spans) => activeUsersDuring(forProject(projectId), projectId, spans),
    occurrenceById: (projectId, eventId) => occurrenceById(forProject(projectId), projectId, eventId),
    sessionTrail: (projectId, occurrence) => sessionTrail(forProject(projectId), projectId, occurrence),
    incidentReleases: (projectId, options) => incidentReleases(forProject(projectId), projectId, options),
    newReleaseOccurrences: (projectId, resolved) =>
      newReleaseOccurrences(forProject(projectId), projectId, resolved),

    lifecycleCounts: (projectId, asOfDay, matching, timeZone) =>
      lifecycleCountsQuestion(forProject(projectId), projectId, asOfDay, matching, timeZone),
    walletStageFacts: (projectId, wallet, asOfDay, timeZone) =>
      walletStageFacts(forProject(projectId), projectId, wallet, asOfDay, timeZone),
    retentionCohorts: (projectId, query) => retentionCohortsQuestion(forProject(projectId), projectId, query),
    failedTransactionCost: (projectId, range, filters, timeZone) =>
      failedTransactionCostQuestion(forProject(projectId), projectId, range, filters, timeZone),
    walletProfile: (projectId, wallet) => walletProfileQuestion(forProject(projectId), projectId, wallet),
    walletTimeline: (projectId, wallet, page) =>
      walletTimelineQuestion(forProject(projectId), projectId, wallet, page),
    walletList: (projectId, query) => walletListQuestion(forProject(projectId), projectId, query),

    async ping() {
      if (isClosed) throw new Error('event store is closed');
      await clickhouse.command('SELECT count() FROM (SELECT 1 FROM events LIMIT 1)');
    },

    // Nothing runs here: ClickHouse sorts every insert by the table's key and merges parts (dropping the
    // copies of an event loaded twice) in its own background threads; DuckDB's compaction has no
    // counterpart to schedule.
    startMaintenance: () => ({ stop: async () => undefined }),

    async close() {
      if (isClosed) return;
      isClosed = true;
      await writer.close();
      await clickhouse.close();
    },
  };
}

/** The adapter as app.ts and the test harness create it, for the ClickHouse at `url`. */
export const clickHouseEventStore =
  (url: string): EventStoreFactory =>
  () =>
    createClickHouseEventStore(url);
