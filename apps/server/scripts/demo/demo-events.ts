import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventWriter } from '../../src/modules/event-store/event-store.ts';
import { batchEntry } from '../../src/modules/ingestion/log-entries.ts';
import { type DemoOptions, generateDemoEvents } from './generate-events.ts';

const SEGMENT_EVENTS = 20_000;

/**
 * Replaces the project's events with the generated demo traffic, written as ingestion writes an SDK batch
 * (a batch record per event, error events with their incident) and loaded through the event store's
 * write side. Answers how many events were written.
 */
export async function replaceDemoEvents(
  store: Pick<EventWriter, 'deleteProjectEvents' | 'loadSegment'>,
  projectId: string,
  options: DemoOptions,
): Promise<number> {
  await store.deleteProjectEvents(projectId);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-demo-'));
  const file = path.join(dir, 'segment.ndjson');
  let records = '';
  let pending = 0;
  let written = 0;
  const load = async () => {
    writeFileSync(file, records);
    await store.loadSegment(file);
    written += pending;
    records = '';
    pending = 0;
  };
  try {
    for (const demo of generateDemoEvents(options)) {
      const request = {
        project: projectId,
        origin: new URL(demo.origin).host,
        receivedAt: demo.receivedAt,
        sdk: 'polyflow/demo-seed',
        country: demo.country,
        browser: demo.browser,
        os: demo.os,
        device: demo.device,
      };
      records += batchEntry(request, [demo.event]).encode(new Set());
      pending += 1;
      if (pending === SEGMENT_EVENTS) await load();
    }
    if (pending > 0) await load();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return written;
}
