import type { IngestEvent } from '@polyflow/contracts/events';
import { rowOfBatchEvent } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { storeRows } from '../support/event-stores.ts';

/**
 * Stores events as one batch of a browser request would be, without ingestion's checks: for values that
 * ingestion refuses today but a store may already hold (older rules, a copy from elsewhere).
 */
export async function storeAsReceived(eventStore: EventStore, projectId: string, events: IngestEvent[]) {
  const request = {
    project: projectId,
    origin: 'app.example.com',
    receivedAt: Date.now(),
    sdk: 'polyflow',
    country: 'GB',
    browser: 'Chrome',
    os: 'Linux',
    device: 'desktop',
  };
  await storeRows(
    eventStore,
    events.map((event) => rowOfBatchEvent(request, event)),
  );
}
