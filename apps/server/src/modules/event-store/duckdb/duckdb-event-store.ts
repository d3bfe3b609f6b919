import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventStore, EventStoreFactory } from '../event-store.ts';
import { activeDays } from '../questions/active-days/duckdb.ts';
import { activeUsersDuring } from '../questions/active-users-during/duckdb.ts';
import { alertIncidentOccurrences } from '../questions/alert-incident-occurrences/duckdb.ts';
import { alertLastEvents } from '../questions/alert-last-events/duckdb.ts';
import { alertTxOutcomes } from '../questions/alert-tx-outcomes/duckdb.ts';
import { attributionCounts } from '../questions/attribution-counts/duckdb.ts';
import { averageGasPrice } from '../questions/average-gas-price/duckdb.ts';
import { connectedWallets } from '../questions/connected-wallets/duckdb.ts';
import { contractFunctions } from '../questions/contract-functions/duckdb.ts';
import { customEventBreakdown } from '../questions/custom-event-breakdown/duckdb.ts';
import { customEventCounts } from '../questions/custom-event-counts/duckdb.ts';
import { customEventSeries } from '../questions/custom-event-series/duckdb.ts';
import { customEventVocabulary } from '../questions/custom-event-vocabulary/duckdb.ts';
import { customFunnel } from '../questions/custom-funnel/duckdb.ts';
import { eventSpan } from '../questions/event-span/duckdb.ts';
import { failedTransactionCost as failedTransactionCostQuestion } from '../questions/failed-transaction-cost/duckdb.ts';
import { filterOptions } from '../questions/filter-options/duckdb.ts';
import { filteredOverview } from '../questions/filtered-overview/duckdb.ts';
import { findTxEvent } from '../questions/find-tx-event/duckdb.ts';
import { funnelCounts } from '../questions/funnel-counts/duckdb.ts';
import { goalAttribution } from '../questions/goal-attribution/duckdb.ts';
import { goalConversions } from '../questions/goal-conversions/duckdb.ts';
import { incidentReleases } from '../questions/incident-releases/duckdb.ts';
import { incidentSummaries } from '../questions/incident-summaries/duckdb.ts';
import { integrationSummary } from '../questions/integration-summary/duckdb.ts';
import {
  lifecycleCounts as lifecycleCountsQuestion,
  walletStageFacts,
} from '../questions/lifecycle-stages/duckdb.ts';
import { newReleaseOccurrences } from '../questions/new-release-occurrences/duckdb.ts';
import { newWallets } from '../questions/new-wallets/duckdb.ts';
import { occurrenceById } from '../questions/occurrence-by-id/duckdb.ts';
import { recentActivity } from '../questions/recent-activity/duckdb.ts';
import { retentionCohorts as retentionCohortsQuestion } from '../questions/retention-cohorts/duckdb.ts';
import { revertErrorNear } from '../questions/revert-error-near/duckdb.ts';
import { sessionTrail } from '../questions/session-trail/duckdb.ts';
import { topPages } from '../questions/top-pages/duckdb.ts';
import { topReferrers } from '../questions/top-referrers/duckdb.ts';
import { transactionCount } from '../questions/transaction-count/duckdb.ts';
import { transactionEvents } from '../questions/transaction-events/duckdb.ts';
import { transactionHistory } from '../questions/transaction-history/duckdb.ts';
import { transactionOutcomes } from '../questions/transaction-outcomes/duckdb.ts';
import { usersBy, usersByBrowser, usersByCountry } from '../questions/users-by-attribute/duckdb.ts';
import { walletCounts } from '../questions/wallet-counts/duckdb.ts';
import { walletList as walletListQuestion } from '../questions/wallet-list/duckdb.ts';
import { walletProfile as walletProfileQuestion } from '../questions/wallet-profile/duckdb.ts';
import { walletProviders } from '../questions/wallet-providers/duckdb.ts';
import { walletTimeline as walletTimelineQuestion } from '../questions/wallet-timeline/duckdb.ts';
import { DuckDBInstance } from './binding.ts';
import {
  type CompactionPolicy,
  type CompactionResult,
  type CompactOptions,
  DEFAULT_COMPACTION_POLICY,
} from './compaction.ts';
import { startEventCompaction } from './compaction-scheduler.ts';
import { createConnectionPool } from './connection-pool.ts';
import { createEventWriter, type LoadStepTiming } from './event-writer.ts';
import { exportEvents } from './export-events.ts';
import { exportFolder, exportText } from './export-text.ts';
import { readProjectEvents } from './project-events.ts';

export type DuckDbStoreOptions = {
  /** `DATA_DIR/events.duckdb`, or ':memory:' in unit tests. */
  file: string;
  /** An instance already open on the file (the analytics bench), which the store then leaves open. */
  instance?: DuckDBInstance;
  /**
   * WAL size that triggers an automatic checkpoint. A checkpoint stalls the writer, so it is kept well
   * above DuckDB's 16 MB default (fewer, larger stalls); the WAL is replayed on start after a crash.
   */
  checkpointThreshold?: string;
  /** When `compact()` rewrites the table clustered by (project_id, ts) (ADR 004). */
  compaction?: Partial<CompactionPolicy>;
  /** Reader connections for the dashboard questions (each runs one query at a time). */
  readers?: number;
  /** Adds up each step of every load here (the loader bench's breakdown). */
  loadTimings?: Map<string, LoadStepTiming>;
  /** Rows a window of the raw export aims at (default EXPORT_WINDOW_ROWS; tests use small windows). */
  exportWindowRows?: number;
  /**
   * DuckDB's memory limit in MB (DUCKDB_MEMORY_LIMIT_MB, 1,024 unless set); undefined keeps DuckDB's own,
   * 80 % of RAM. It bounds the blocks a raw export leaves cached; compaction, whose new primary-key index
   * DuckDB builds in memory, lifts it while it runs (docs/decisions/028). Not applied to `instance`.
   */
  memoryLimitMb?: number;
};

/** The pool's key for the alert rules' questions, which read many projects at once. */
const ALERTS_KEY = 'alert-rules';

/** The DuckDB adapter, with what only DuckDB has (tests and benches use it). */
export type DuckDbEventStore = EventStore & {
  /** A connection of the same instance (reads see every committed load). */
  connect(): Promise<DuckDBConnection>;
  /**
   * Rewrites the table ordered by (project_id, ts) if enough rows arrived since the last time (or
   * always with `force`). Loads wait while it runs, so the ingestion loader pauses; readers don't.
   */
  compact(options?: CompactOptions): Promise<CompactionResult>;
};

/** The event store in a DuckDB file: one writer connection, a few reader connections. */
export async function createDuckDbEventStore(options: DuckDbStoreOptions): Promise<DuckDbEventStore> {
  if (options.file !== ':memory:') mkdirSync(path.dirname(options.file), { recursive: true });
  const instance =
    options.instance ??
    (await DuckDBInstance.create(options.file, {
      checkpoint_threshold: options.checkpointThreshold ?? '128MB',
      ...(options.memoryLimitMb ? { memory_limit: `${options.memoryLimitMb}MB` } : {}),
    }));
  const writer = await createEventWriter(instance, {
    compaction: { ...DEFAULT_COMPACTION_POLICY, ...options.compaction },
    loadTimings: options.loadTimings,
    memoryLimitMb: options.instance ? undefined : options.memoryLimitMb,
  });
  // The console asks for a dozen figures at once: they queue for a free connection.
  const pool = createConnectionPool(() => instance.connect(), options.readers ?? 4);
  // The text export's window files: beside the database file, emptied at open (leftovers of a crash).
  let exportFolderPath: string | undefined;
  const exportFiles = () => {
    exportFolderPath ??= exportFolder(
      options.file === ':memory:'
        ? path.join(mkdtempSync(path.join(os.tmpdir(), 'polyflow-')), 'x')
        : options.file,
    );
    return exportFolderPath;
  };
  if (options.file !== ':memory:') exportFiles();
  const use = pool.use;
  let isClosed = false;

  const store: DuckDbEventStore = {
    loadSegment: writer.loadSegment,
    isRecordError: writer.isRecordError,
    deleteProjectEvents: writer.deleteProjectEvents,
    deleteEventsBefore: writer.deleteEventsBefore,
    deleteWalletEvents: writer.deleteWalletEvents,
    deleteUserEvents: writer.deleteUserEvents,
    compact: writer.compact,
    connect: () => instance.connect(),

    integrationSummary: (projectId, since) => use(projectId, (c) => integrationSummary(c, projectId, since)),
    findTxEvent: (projectId, id) => use(projectId, (c) => findTxEvent(c, projectId, id)),
    projectEvents: (projectId) => use(projectId, (c) => readProjectEvents(c, projectId)),
    exportEvents: (projectId, range) =>
      range.text
        ? exportText(pool, exportFiles(), projectId, range, range.text, options.exportWindowRows)
        : exportEvents(pool, projectId, range, options.exportWindowRows),

    eventSpan: (projectId) => use(projectId, (c) => eventSpan(c, projectId)),
    // The alert rules' questions read many projects at once: they queue under one key of their own.
    alertTxOutcomes: (windows) => use(ALERTS_KEY, (c) => alertTxOutcomes(c, windows)),
    alertIncidentOccurrences: (windows) => use(ALERTS_KEY, (c) => alertIncidentOccurrences(c, windows)),
    alertLastEvents: (windows) => use(ALERTS_KEY, (c) => alertLastEvents(c, windows)),
    connectedWallets: (projectId, range, filters) =>
      use(projectId, (c) => connectedWallets(c, projectId, range, filters)),
    newWallets: (projectId, range, filters) =>
      use(projectId, (c) => newWallets(c, projectId, range, filters)),
    transactionOutcomes: (projectId, range, filters) =>
      use(projectId, (c) => transactionOutcomes(c, projectId, range, filters)),
    averageGasPrice: (projectId, range, chainId, filters) =>
      use(projectId, (c) => averageGasPrice(c, projectId, range, chainId, filters)),
    walletCounts: (projectId, range, filters) =>
      use(projectId, (c) => walletCounts(c, projectId, range, filters)),
    activeDays: (projectId, range, previousRange, timeZone, filters) =>
      use(projectId, (c) => activeDays(c, projectId, range, previousRange, timeZone, filters)),
    filteredOverview: (projectId, range, previousRange, timeZone, filters) =>
      use(projectId, (c) => filteredOverview(c, projectId, range, previousRange, timeZone, filters)),
    contractFunctions: (projectId, range, limit, filters) =>
      use(projectId, (c) => contractFunctions(c, projectId, range, limit, filters)),
    walletProviders: (projectId, range, filters) =>
      use(projectId, (c) => walletProviders(c, projectId, range, filters)),
    usersByCountry: (projectId, range, limit, filters) =>
      use(projectId, (c) => usersByCountry(c, projectId, range, limit, filters)),
    usersByBrowser: (projectId, range, limit, filters) =>
      use(projectId, (c) => usersByBrowser(c, projectId, range, limit, filters)),
    usersBy: (attribute, projectId, range, limit, filters) =>
      use(projectId, (c) => usersBy(attribute, c, projectId, range, limit, filters)),
    topPages: (projectId, range, limit, filters) =>
      use(projectId, (c) => topPages(c, projectId, range, limit, filters)),
    customEventCounts: (projectId, range) => use(projectId, (c) => customEventCounts(c, projectId, range)),
    customFunnel: (projectId, range, funnel, split) =>
      use(projectId, (c) => customFunnel(c, projectId, range, funnel, split)),
    goalConversions: (projectId, range, goals) =>
      use(projectId, (c) => goalConversions(c, projectId, range, goals)),
    goalAttribution: (projectId, range, dimension, goal, filters) =>
      use(projectId, (c) => goalAttribution(c, projectId, range, dimension, goal, filters)),
    customEventVocabulary: (projectId) => use(projectId, (c) => customEventVocabulary(c, projectId)),
    customEventBreakdown: (projectId, range, name, key, limit) =>
      use(projectId, (c) => customEventBreakdown(c, projectId, range, name, key, limit)),
    customEventSeries: (projectId, range, name, timeZone) =>
      use(projectId, (c) => customEventSeries(c, projectId, range, name, timeZone)),
    topReferrers: (projectId, range, limit, filters) =>
      use(projectId, (c) => topReferrers(c, projectId, range, limit, filters)),
    recentActivity: (projectId, range) => use(projectId, (c) => recentActivity(c, projectId, range)),
    transactionHistory: (projectId, range, page, filter) =>
      use(projectId, (c) => transactionHistory(c, projectId, range, page, filter)),
    transactionCount: (projectId, range, filter) =>
      use(projectId, (c) => transactionCount(c, projectId, range, filter)),
    transactionEvents: (projectId, hashOrId) =>
      use(projectId, (c) => transactionEvents(c, projectId, hashOrId)),
    revertErrorNear: (projectId, around) => use(projectId, (c) => revertErrorNear(c, projectId, around)),

    funnelCounts: (projectId, range, filters) =>
      use(projectId, (c) => funnelCounts(c, projectId, range, filters)),
    attributionCounts: (projectId, range, dimension, filters) =>
      use(projectId, (c) => attributionCounts(c, projectId, range, dimension, filters)),
    filterOptions: (projectId, range) => use(projectId, (c) => filterOptions(c, projectId, range)),

    incidentSummaries: (projectId, range, summaryOptions) =>
      use(projectId, (c) => incidentSummaries(c, projectId, range, summaryOptions)),
    // Two reader connections at once: DuckDB answers each from its derived tables in a few milliseconds.
    incidentSummariesAndLives: async (projectId, range, livesToMs, summaryOptions) => {
      const allTime = { fromMs: 0, toMs: livesToMs };
      const only = { incidentId: summaryOptions?.incidentId };
      const [summaries, lives] = await Promise.all([
        use(projectId, (c) => incidentSummaries(c, projectId, range, summaryOptions)),
        use(projectId, (c) => incidentSummaries(c, projectId, allTime, only)),
      ]);
      return { summaries, lives };
    },
    activeUsersDuring: (projectId, spans) => use(projectId, (c) => activeUsersDuring(c, projectId, spans)),
    occurrenceById: (projectId, eventId) => use(projectId, (c) => occurrenceById(c, projectId, eventId)),
    sessionTrail: (projectId, occurrence) => use(projectId, (c) => sessionTrail(c, projectId, occurrence)),
    incidentReleases: (projectId, options) => use(projectId, (c) => incidentReleases(c, projectId, options)),
    newReleaseOccurrences: (projectId, resolved) =>
      use(projectId, (c) => newReleaseOccurrences(c, projectId, resolved)),

    lifecycleCounts: (projectId, asOfDay, matching, timeZone) =>
      use(projectId, (c) => lifecycleCountsQuestion(c, projectId, asOfDay, matching, timeZone)),
    walletStageFacts: (projectId, wallet, asOfDay, timeZone) =>
      use(projectId, (c) => walletStageFacts(c, projectId, wallet, asOfDay, timeZone)),
    retentionCohorts: (projectId, query) =>
      use(projectId, (c) => retentionCohortsQuestion(c, projectId, query)),
    failedTransactionCost: (projectId, range, filters, timeZone) =>
      use(projectId, (c) => failedTransactionCostQuestion(c, projectId, range, filters, timeZone)),
    walletProfile: (projectId, wallet, activeDaysFrom) =>
      use(projectId, (c) => walletProfileQuestion(c, projectId, wallet, activeDaysFrom)),
    walletTimeline: (projectId, wallet, page) =>
      use(projectId, (c) => walletTimelineQuestion(c, projectId, wallet, page)),
    walletList: (projectId, query) => use(projectId, (c) => walletListQuestion(c, projectId, query)),

    async copyInto(file) {
      if (isClosed) throw new Error('event store is closed');
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll('SELECT current_database()');
        const source = String(reader.getRows()[0]?.[0]);
        const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
        const ident = (text: string) => `"${text.replaceAll('"', '""')}"`;
        // One statement, one snapshot: loads that commit meanwhile are not in the copy, nor half in it.
        await connection.run(`ATTACH ${quote(file)} AS polyflow_copy`);
        try {
          await connection.run(`COPY FROM DATABASE ${ident(source)} TO polyflow_copy`);
        } finally {
          await connection.run('DETACH polyflow_copy');
        }
      } finally {
        connection.closeSync();
      }
    },

    async ping() {
      if (isClosed) throw new Error('event store is closed');
      // Reads the table, not just `SELECT 1`: a database invalidated by an earlier fatal error fails here.
      // The health check takes its turn as a project of its own.
      await use('', (c) => c.run('SELECT count(*) FROM (SELECT 1 FROM events LIMIT 1)'));
    },

    startMaintenance(logger) {
      const compaction = startEventCompaction({ store, logger });
      return { stop: async () => compaction.stop() };
    },

    async close() {
      if (isClosed) return;
      isClosed = true;
      pool.close();
      await writer.close();
      // Closing the last handle checkpoints the WAL into the file.
      if (!options.instance) instance.closeSync();
    },
  };
  return store;
}

/** The adapter as app.ts and the test harness create it: a file in DATA_DIR. */
export const duckDbEventStore =
  (options: { memoryLimitMb?: number } = {}): EventStoreFactory =>
  ({ dataDir }) =>
    createDuckDbEventStore({
      file: path.join(dataDir, 'events.duckdb'),
      memoryLimitMb: options.memoryLimitMb,
    });

/** The DuckDB adapter behind a port, for the tests and tools that need DuckDB itself. */
export function asDuckDbEventStore(store: EventStore): DuckDbEventStore {
  if (!('compact' in store && 'connect' in store)) throw new Error('not the DuckDB event store');
  return store as DuckDbEventStore;
}
