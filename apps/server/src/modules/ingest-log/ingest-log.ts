import { mkdirSync, readdirSync, readFileSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { createLogFileThread } from './log-file-thread.ts';

const SEGMENT = /^(\d{12})\.ndjson$/;
const segmentName = (sequence: number) => `${String(sequence).padStart(12, '0')}.ndjson`;

/**
 * Cuts a segment back to its last complete record. Only a record whose write was under way at a
 * crash can be incomplete, and it was never acknowledged (acknowledgement waits for the fsync).
 */
function truncateToLastRecord(file: string): number {
  const size = statSync(file).size;
  if (size === 0) return 0;
  const text = readFileSync(file);
  const end = text.lastIndexOf(0x0a) + 1;
  if (end < size) truncateSync(file, end);
  return end;
}

/**
 * The ingestion log: append-only segment files of newline-delimited records in its own directory.
 * `append` resolves once the records are on disk (fdatasync), so an acknowledged batch survives a
 * crash; the loader takes closed segments into the event store and removes them. Appends and
 * rotations run one at a time, in call order.
 */
export function createIngestLog(dir: string) {
  mkdirSync(dir, { recursive: true });
  const closed: string[] = [];
  /** Bytes of every segment on disk (closed and current): what is durable but not loaded yet. */
  const sizes = new Map<string, number>();
  /** When each of those segments got its first record (epoch ms): the loader's lag is measured from it. */
  const firstAppendAt = new Map<string, number>();
  let nextSequence = 1;
  for (const name of readdirSync(dir).sort()) {
    const match = SEGMENT.exec(name);
    if (!match) continue;
    nextSequence = Math.max(nextSequence, Number(match[1]) + 1);
    const size = truncateToLastRecord(path.join(dir, name));
    if (size === 0) {
      unlinkSync(path.join(dir, name));
    } else {
      closed.push(name);
      sizes.set(name, size);
      // A segment left by an earlier run is at least as old as its last write.
      firstAppendAt.set(name, statSync(path.join(dir, name)).mtimeMs);
    }
  }

  let current: { name: string; bytes: number } | undefined;
  /** Appends, closes and unlinks run on a thread of their own, off libuv's pool (log-file-thread.ts). */
  const files = createLogFileThread();
  /**
   * The bytes of one append, reused from one append to the next (appends run one at a time). A new
   * Buffer per append, of a few hundred KB under load, cost the request path more than encoding the
   * records did: about 8 µs per event to allocate, against 0.1 to copy into memory already there
   * (ADR 023). It grows to the largest group seen: a few MB at most (group commit's `maxEvents`). Shared
   * memory: the log's thread writes from it as it is.
   */
  let shared = new SharedArrayBuffer(1024 * 1024);
  let scratch = Buffer.from(shared);
  /** Each record's bytes in the last `copyIn`, reused (appends run one at a time). */
  const recordBytes: number[] = [];
  function copyIn(records: readonly string[]): number {
    let length = 0;
    recordBytes.length = records.length;
    records.forEach((record, index) => {
      const bytes = Buffer.byteLength(record);
      recordBytes[index] = bytes;
      length += bytes;
    });
    if (length > scratch.length) {
      shared = new SharedArrayBuffer(Math.max(length, 2 * scratch.length));
      scratch = Buffer.from(shared);
    }
    let offset = 0;
    for (const record of records) offset += scratch.write(record, offset, 'utf8');
    return offset;
  }
  /**
   * Per project, the bytes it appended that are not loaded yet, and per segment what each project put
   * in it (taken off when the segment is removed). Segments left by an earlier run are counted in the
   * total only. For back-pressure by share (service.ts, ADR 034).
   */
  const pendingByProject = new Map<string, number>();
  const segmentProjects = new Map<string, Map<string, number>>();
  function account(segment: string, owners: readonly string[]): void {
    let projects = segmentProjects.get(segment);
    if (!projects) {
      projects = new Map();
      segmentProjects.set(segment, projects);
    }
    owners.forEach((project, index) => {
      const bytes = recordBytes[index] ?? 0;
      projects.set(project, (projects.get(project) ?? 0) + bytes);
      pendingByProject.set(project, (pendingByProject.get(project) ?? 0) + bytes);
    });
  }
  function forget(segment: string): void {
    for (const [project, bytes] of segmentProjects.get(segment) ?? []) {
      const left = (pendingByProject.get(project) ?? 0) - bytes;
      if (left > 0) pendingByProject.set(project, left);
      else pendingByProject.delete(project);
    }
    segmentProjects.delete(segment);
  }
  let chain: Promise<unknown> = Promise.resolve();
  let isClosed = false;

  /** Runs after everything queued before it, whatever became of it. */
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = chain.then(task);
    chain = run.catch(() => undefined);
    return run;
  }

  return {
    dir,

    /**
     * Appends whole records (each string one or more, each ending with "\n"); resolves once they are
     * durable. `owners`, when given, names each record's project (for `pendingBytesOf`).
     */
    append(records: readonly string[], owners?: readonly string[]): Promise<void> {
      return serial(async () => {
        if (isClosed) throw new Error('ingestion log is closed');
        current ??= { name: segmentName(nextSequence++), bytes: 0 };
        const segment = current;
        const length = copyIn(records);
        try {
          await files.append(path.join(dir, segment.name), shared, length, segment.bytes);
        } catch (error) {
          // A segment that never got a record is not one: the next append starts another. Otherwise
          // never leave half a record for the next append to follow: the thread cuts the file back
          // itself, but not if it is the thread that failed.
          if (segment.bytes === 0) current = undefined;
          else {
            try {
              truncateSync(path.join(dir, segment.name), segment.bytes);
            } catch {
              // Reported by the append's own error; start-up cuts a segment to its last whole record.
            }
          }
          throw error;
        }
        if (segment.bytes === 0) firstAppendAt.set(segment.name, Date.now());
        segment.bytes += length;
        sizes.set(segment.name, segment.bytes);
        if (owners) account(segment.name, owners);
      });
    },

    /** Closes the segment being written (if it holds anything), making it available to the loader. */
    rotate(): Promise<void> {
      return serial(async () => {
        if (!current) return;
        const segment = current;
        current = undefined;
        await files.close();
        closed.push(segment.name);
      });
    },

    /** Bytes durable in the log and not loaded yet (for back-pressure). */
    pendingBytes(): number {
      let total = 0;
      for (const size of sizes.values()) total += size;
      return total;
    },

    /** Bytes `project` appended (with `owners`) that are not loaded yet. */
    pendingBytesOf: (project: string): number => pendingByProject.get(project) ?? 0,

    /** How many projects have bytes appended and not loaded yet. */
    pendingProjects: (): number => pendingByProject.size,

    /** When the oldest record not loaded yet became durable (epoch ms); undefined when none waits. */
    oldestPendingAt(): number | undefined {
      let oldest: number | undefined;
      for (const at of firstAppendAt.values()) if (oldest === undefined || at < oldest) oldest = at;
      return oldest;
    },

    /** Closed segments, oldest first: what is durable but not loaded yet. */
    closedSegments: (): readonly string[] => [...closed],
    pathOf: (name: string) => path.join(dir, name),
    readSync: (name: string) => readFileSync(path.join(dir, name), 'utf8'),

    /** After the segment's records are committed to the event store. */
    async remove(name: string): Promise<void> {
      // After close (the last load's segments), the thread is gone: a plain unlink.
      if (isClosed) unlinkSync(path.join(dir, name));
      else await files.unlink(path.join(dir, name));
      closed.splice(closed.indexOf(name), 1);
      sizes.delete(name);
      firstAppendAt.delete(name);
      forget(name);
    },

    close(): Promise<void> {
      return serial(async () => {
        isClosed = true;
        if (current) {
          await files.close();
          closed.push(current.name);
          current = undefined;
        }
        await files.stop();
      });
    },
  };
}

export type IngestLog = ReturnType<typeof createIngestLog>;
