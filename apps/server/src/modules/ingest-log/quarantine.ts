import { appendFileSync, existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export type QuarantineOptions = {
  /** The ingestion log's directory; the quarantine file and the loader's scratch file live in it. */
  dir: string;
  /** Whether a failed load failed on a record's content (the same records would fail again). */
  isRecordError(error: unknown): boolean;
  /** Told once per quarantined record, with the file that keeps it. */
  onQuarantined?(details: { segment: string; file: string; error: unknown; total: number }): void;
};

const QUARANTINE_FILE = 'quarantine.ndjson';
const SCRATCH_FILE = 'loading.part';

function countLines(file: string): number {
  if (!existsSync(file)) return 0;
  let count = 0;
  for (const byte of readFileSync(file)) if (byte === 0x0a) count++;
  return count;
}

/**
 * Defence in depth for the loader (ADR 009). Validation keeps records the event store cannot load out of
 * the ingestion log, but if one still gets there (a bug, a disk that flipped a byte), one record must not
 * hold back every later event of every project. When a segment fails to load on a record's content, its
 * records are loaded in halves, down to the single records that fail: those are appended, byte for byte,
 * to `quarantine.ndjson` in the log's directory (kept, counted, reported), everything else loads.
 */
export function createQuarantine({ dir, isRecordError, onQuarantined }: QuarantineOptions) {
  const file = path.join(dir, QUARANTINE_FILE);
  const scratch = path.join(dir, SCRATCH_FILE);
  // A crash during a load in halves leaves the scratch file; its records are still in their segment.
  if (existsSync(scratch)) unlinkSync(scratch);
  let total = countLines(file);

  /** Loads `records` (whole lines, each ending in "\n") through the scratch file, halving on a record error. */
  async function loadInHalves(
    segment: string,
    records: Buffer[],
    load: (file: string) => Promise<void>,
  ): Promise<void> {
    writeFileSync(scratch, Buffer.concat(records));
    try {
      await load(scratch);
      return;
    } catch (error) {
      if (!isRecordError(error)) throw error;
      if (records.length === 1) {
        appendFileSync(file, records[0] as Buffer, { mode: 0o600 });
        total++;
        onQuarantined?.({ segment, file, error, total });
        return;
      }
    }
    const middle = Math.ceil(records.length / 2);
    await loadInHalves(segment, records.slice(0, middle), load);
    await loadInHalves(segment, records.slice(middle), load);
  }

  return {
    file,
    /** Records kept in quarantine, over every run. */
    count: () => total,
    isRecordError,

    /**
     * After `load(segmentFile)` failed with a record error: loads every record of the segment that can
     * be loaded and quarantines the others. Throws (to retry later) if the store itself fails meanwhile.
     */
    async loadAroundBadRecords(segmentFile: string, load: (file: string) => Promise<void>): Promise<void> {
      const content = await readFile(segmentFile);
      const records: Buffer[] = [];
      let start = 0;
      for (let end = content.indexOf(0x0a); end !== -1; end = content.indexOf(0x0a, start)) {
        if (end > start) records.push(content.subarray(start, end + 1));
        start = end + 1;
      }
      try {
        if (records.length > 0) await loadInHalves(path.basename(segmentFile), records, load);
      } finally {
        if (existsSync(scratch)) unlinkSync(scratch);
      }
    },
  };
}

export type Quarantine = ReturnType<typeof createQuarantine>;
