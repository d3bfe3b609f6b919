import type { EventReader, EventStore, EventStoreFactory } from '../event-store.ts';
import { type ClickHouse, connectClickHouse } from './client.ts';
import { createEventWriter } from './event-writer.ts';
import { readProjectEvents } from './project-events.ts';
import { activeUsersDuring } from './questions/active-users.ts';
import { attributionCounts } from './questions/attribution.ts';
import { eventSpan } from './questions/event-span.ts';
import { filterOptions } from './questions/filter-options.ts';
import { findTxEvent } from './questions/find-tx-event.ts';
import { funnelCounts } from './questions/funnel.ts';
import { incidentSummaries } from './questions/incident-summaries.ts';
import { integrationSummary } from './questions/integration-summary.ts';
import { newWallets } from './questions/new-wallets.ts';
import { occurrenceById } from './questions/occurrence-by-id.ts';
import { revertErrorNear } from './questions/revert-error-near.ts';
import { sessionTrail } from './questions/session-trail.ts';
import { usersByBrowser, usersByCountry } from './questions/users-by-attribute.ts';
import { migrate } from './schema.ts';

/** The ClickHouse adapter, with the connection tests and tools may query directly. */
export type ClickHouseEventStore = EventStore & { clickhouse: ClickHouse };

/** A question whose ClickHouse SQL is not written yet: it fails loudly rather than answering wrongly. */
function notImplemented(question: keyof EventReader): () => Promise<never> {
  return () => Promise.reject(new Error(`${question} is not implemented in the ClickHouse adapter yet`));
}

/**
 * The event store in a ClickHouse database (CLICKHOUSE_URL: server, database and credentials). The schema
 * is created or migrated on start (schema.ts); loads and deletes go one at a time; questions run as they
 * come (ClickHouse runs them concurrently).
 */
export async function createClickHouseEventStore(url: string): Promise<ClickHouseEventStore> {
  const clickhouse = await connectClickHouse(url);
  try {
    await migrate(clickhouse);
  } catch (error) {
    await clickhouse.close();
    throw error;
  }
  const writer = createEventWriter(clickhouse);
  let isClosed = false;

  return {
    clickhouse,
    loadSegment: writer.loadSegment,
    isRecordError: writer.isRecordError,
    deleteProjectEvents: writer.deleteProjectEvents,
    deleteEventsBefore: writer.deleteEventsBefore,
    deleteWalletEvents: writer.deleteWalletEvents,
    deleteUserEvents: writer.deleteUserEvents,

    integrationSummary: (projectId, since) => integrationSummary(clickhouse, projectId, since),
    findTxEvent: (projectId, id) => findTxEvent(clickhouse, projectId, id),
    projectEvents: (projectId) => readProjectEvents(clickhouse, projectId),

    eventSpan: (projectId) => eventSpan(clickhouse, projectId),
    connectedWallets: notImplemented('connectedWallets'),
    newWallets: (projectId, range) => newWallets(clickhouse, projectId, range),
    transactionOutcomes: notImplemented('transactionOutcomes'),
    averageGasPrice: notImplemented('averageGasPrice'),
    walletCounts: notImplemented('walletCounts'),
    activeDays: notImplemented('activeDays'),
    contractFunctions: notImplemented('contractFunctions'),
    walletProviders: notImplemented('walletProviders'),
    usersByCountry: (projectId, range, limit) => usersByCountry(clickhouse, projectId, range, limit),
    usersByBrowser: (projectId, range, limit) => usersByBrowser(clickhouse, projectId, range, limit),
    transactionHistory: notImplemented('transactionHistory'),
    transactionEvents: notImplemented('transactionEvents'),
    revertErrorNear: (projectId, around) => revertErrorNear(clickhouse, projectId, around),

    funnelCounts: (projectId, range, filters) => funnelCounts(clickhouse, projectId, range, filters),
    attributionCounts: (projectId, range, dimension, filters) =>
      attributionCounts(clickhouse, projectId, range, dimension, filters),
    filterOptions: (projectId, range) => filterOptions(clickhouse, projectId, range),

    incidentSummaries: (projectId, range, options) =>
      incidentSummaries(clickhouse, projectId, range, options),
    activeUsersDuring: (projectId, spans) => activeUsersDuring(clickhouse, projectId, spans),
    occurrenceById: (projectId, eventId) => occurrenceById(clickhouse, projectId, eventId),
    sessionTrail: (projectId, occurrence) => sessionTrail(clickhouse, projectId, occurrence),

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
