import type { DuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import { mapEvent } from '../../src/modules/ingestion/map-event.ts';
import { type DemoOptions, generateDemoEvents } from './generate-events.ts';

const BATCH = 20_000;

/**
 * Replaces the project's events with the generated demo traffic, mapped to rows exactly as ingestion
 * maps a batch (same columns, same enrichment fields). Answers how many events were written.
 */
export async function replaceDemoEvents(
  store: DuckDbEventStore,
  projectId: string,
  options: DemoOptions,
): Promise<number> {
  await store.deleteProjectEvents(projectId);
  let rows: EventRow[] = [];
  let written = 0;
  for (const demo of generateDemoEvents(options)) {
    rows.push(
      mapEvent(demo.event, rows.length, {
        projectId,
        originHost: new URL(demo.origin).host,
        receivedAt: demo.receivedAt,
        sdk: 'polyflow/demo-seed',
        country: demo.country,
        browser: demo.browser,
        os: demo.os,
        device: demo.device,
      }),
    );
    if (rows.length === BATCH) {
      await store.insertBatch(rows);
      written += rows.length;
      rows = [];
    }
  }
  if (rows.length) await store.insertBatch(rows);
  return written + rows.length;
}
