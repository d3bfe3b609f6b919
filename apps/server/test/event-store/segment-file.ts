import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EventRow } from '../../src/modules/event-store/event-row.ts';
import type { EventStore } from '../../src/modules/event-store/event-store.ts';
import { rowsRecord } from '../../src/modules/event-store/log-records.ts';

let written = 0;

/** Rows as an ingestion log segment of rows records (what the loader hands the store), a new file in `dir`. */
export function writeSegment(dir: string, rows: readonly EventRow[]): string {
  written += 1;
  const file = path.join(dir, `segment-${written}`);
  writeFileSync(file, rows.map((row) => `${rowsRecord(row)}\n`).join(''));
  return file;
}

/**
 * Loads in pieces that split sessions and days, newest first, each event twice (once in a later, larger
 * load): what an incremental derived table must fold to the same rows as one load of everything.
 */
export async function loadScattered(
  store: Pick<EventStore, 'loadSegment'>,
  dir: string,
  rows: readonly EventRow[],
): Promise<void> {
  const pieces = [rows.filter((_, index) => index % 3 === 0), rows.filter((_, index) => index % 3 !== 0)];
  for (const piece of pieces.reverse()) await store.loadSegment(writeSegment(dir, [...piece].reverse()));
  await store.loadSegment(writeSegment(dir, rows));
}
