import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EventRow } from '../modules/event-store/event-row.ts';
import type { EventWriter } from '../modules/event-store/event-store.ts';
import { rowsRecord } from '../modules/event-store/log-records.ts';
import { AdminError } from './admin-error.ts';

/**
 * `copy-events`: an embedded event store copied into another one (DuckDB → ClickHouse, docs/scaling.md),
 * slice by slice: a project's events received in one UTC day. Each slice is written as a log segment of
 * rows records (log-records.ts) and loaded through the target's own write side, so the target derives
 * what it derives as for any load, and drops events it holds already by (project, id): re-running never
 * counts an event twice. A checkpoint file names every slice copied with its fingerprint (count and
 * latest arrival), so an interrupted copy continues where it stopped, and a later pass copies only the
 * slices that changed since.
 */

/** A project's events that arrived in one UTC day, as the source counts them. */
export type Slice = { projectId: string; dayMs: number; events: number; lastReceivedMs: number };

export type CopySource = {
  /** Every slice, by project and day. */
  slices(): Promise<Slice[]>;
  /** The project's rows that arrived from `fromMs` (a day's start) to before `toMs`, in arrival order. */
  rows(projectId: string, fromMs: number, toMs: number): Promise<EventRow[]>;
};

export type CopyTarget = Pick<EventWriter, 'loadSegment'>;

export type CopyProgress = {
  start(totalEvents: number, alreadyCopied: number): void;
  advance(events: number): void;
  finish(): void;
};

export type CopyReport = {
  slices: number;
  /** Slices copied in this pass (the others were in the checkpoint with the same fingerprint). */
  slicesCopied: number;
  eventsInSource: number;
  eventsCopied: number;
  /** Whether the source held the same slices at the end of the pass as at its start. */
  isSourceUnchanged: boolean;
};

/**
 * The checkpoint: a first line naming the target, then a line per slice copied (key and fingerprint),
 * appended after each load: an interruption loses at most the load under way, which the next run repeats
 * (the target drops what it holds already).
 */
type Checkpoint = { slices: Map<string, string>; remember(copied: readonly Slice[]): void };

const sliceKey = (slice: Slice) => `${slice.projectId}/${new Date(slice.dayMs).toISOString().slice(0, 10)}`;
const fingerprint = (slice: Slice) => `${slice.events}@${slice.lastReceivedMs}`;

function openCheckpoint(file: string, target: string): Checkpoint {
  const slices = new Map<string, string>();
  if (existsSync(file)) {
    const [head, ...lines] = readFileSync(file, 'utf8').split('\n');
    const named = head ? (JSON.parse(head) as { target?: string }).target : undefined;
    if (named !== target) {
      throw new AdminError(
        `${file} records a copy into ${named}, not ${target}. Delete it to copy into ${target} from the start.`,
      );
    }
    for (const line of lines) {
      // A line cut short by a crash is the last one: its load is repeated.
      if (!line.endsWith('}')) continue;
      const entry = JSON.parse(line) as { slice: string; fingerprint: string };
      slices.set(entry.slice, entry.fingerprint);
    }
  } else {
    writeFileSync(file, `${JSON.stringify({ target })}\n`);
  }
  return {
    slices,
    remember(copied) {
      let lines = '';
      for (const slice of copied) {
        slices.set(sliceKey(slice), fingerprint(slice));
        lines += `${JSON.stringify({ slice: sliceKey(slice), fingerprint: fingerprint(slice) })}\n`;
      }
      appendFileSync(file, lines);
    },
  };
}

const DAY_MS = 86_400_000;
/** Rows per load: few large inserts suit ClickHouse (each insert is a part to merge). */
const LOAD_EVENTS = 100_000;

export async function copyEvents(options: {
  source: CopySource;
  target: CopyTarget;
  /** Where the copy into this target is remembered (resumes, final passes). */
  checkpointFile: string;
  /** Names the target in the checkpoint (a URL without its password). */
  targetName: string;
  /** Scratch directory for the slices' segment files. */
  workDir: string;
  progress: CopyProgress;
  /** Stops after this many slices (tests interrupt a copy with it). */
  maxSlices?: number;
  /** Events per load into the target (default 100,000). */
  loadEvents?: number;
}): Promise<CopyReport> {
  const { source, target, progress } = options;
  const checkpoint = openCheckpoint(options.checkpointFile, options.targetName);
  mkdirSync(options.workDir, { recursive: true });
  const segment = path.join(options.workDir, 'copy-slice.log');

  const slices = await source.slices();
  const pending = slices.filter((slice) => checkpoint.slices.get(sliceKey(slice)) !== fingerprint(slice));
  const eventsInSource = slices.reduce((sum, slice) => sum + slice.events, 0);
  const eventsPending = pending.reduce((sum, slice) => sum + slice.events, 0);
  progress.start(eventsInSource, eventsInSource - eventsPending);

  let eventsCopied = 0;
  let slicesCopied = 0;
  let lines = '';
  let batch: Slice[] = [];
  let batchEvents = 0;
  const load = async () => {
    writeFileSync(segment, lines);
    await target.loadSegment(segment);
    checkpoint.remember(batch);
    eventsCopied += batchEvents;
    slicesCopied += batch.length;
    progress.advance(batchEvents);
    lines = '';
    batch = [];
    batchEvents = 0;
  };
  try {
    const loadEvents = options.loadEvents ?? LOAD_EVENTS;
    const limit = Math.min(pending.length, options.maxSlices ?? pending.length);
    // One read per run of a project's pending days up to a load's worth of events: a query per day
    // costs more than its rows on a small store (a wide select is planned each time).
    for (let first = 0; first < limit; ) {
      let last = first;
      let runEvents = pending[first]?.events ?? 0;
      while (last + 1 < limit) {
        const next = pending[last + 1] as Slice;
        if (next.projectId !== pending[first]?.projectId || runEvents + next.events > loadEvents) break;
        runEvents += next.events;
        last++;
      }
      const run = pending.slice(first, last + 1);
      first = last + 1;
      const days = new Map(run.map((slice) => [slice.dayMs, { ...slice, events: 0, lastReceivedMs: 0 }]));
      const from = (run[0] as Slice).dayMs;
      const rows = await source.rows((run[0] as Slice).projectId, from, (run.at(-1) as Slice).dayMs + DAY_MS);
      for (const row of rows) {
        // Only the pending days (a day between them may be copied already).
        const day = days.get(Math.floor(row.received_at / DAY_MS) * DAY_MS);
        if (!day) continue;
        // The slice as it was read (events that arrived meanwhile make a later pass copy it again).
        day.events++;
        day.lastReceivedMs = Math.max(day.lastReceivedMs, row.received_at);
        lines += `${rowsRecord(row)}\n`;
        batchEvents++;
      }
      batch.push(...days.values());
      if (batchEvents >= loadEvents) await load();
    }
    if (batch.length > 0) await load();
  } finally {
    rmSync(segment, { force: true });
    progress.finish();
  }

  const after = await source.slices();
  const isSourceUnchanged =
    after.length === slices.length &&
    after.every((slice, index) => {
      const before = slices[index];
      return (
        before !== undefined &&
        sliceKey(before) === sliceKey(slice) &&
        fingerprint(before) === fingerprint(slice)
      );
    });
  return {
    slices: after.length,
    slicesCopied,
    eventsInSource: after.reduce((sum, slice) => sum + slice.events, 0),
    eventsCopied,
    isSourceUnchanged:
      isSourceUnchanged &&
      after.every((slice) => checkpoint.slices.get(sliceKey(slice)) === fingerprint(slice)),
  };
}

/** What the operator reads at the end of a pass: what was copied, and whether to switch now. */
export function describeCopy(report: CopyReport): string {
  const figures = `${report.eventsCopied.toLocaleString('en-US')} events copied in this pass (${report.slicesCopied} of ${report.slices} project-days); the source holds ${report.eventsInSource.toLocaleString('en-US')}.`;
  if (report.isSourceUnchanged && report.slicesCopied === 0) {
    return `${figures}\nEverything is copied and the source did not change: safe to switch. Start the nodes with CLICKHOUSE_URL set.`;
  }
  if (report.isSourceUnchanged) {
    return `${figures}\nEverything the source holds is copied, and it did not change during this pass. If the server using it is stopped, it is safe to switch: start the nodes with CLICKHOUSE_URL set. If it still runs: stop it (SIGTERM: it loads its ingestion log first), run this command again (a short final pass), then switch.`;
  }
  return `${figures}\nThe source changed during the copy, or the copy was interrupted: run this command again. To switch: stop the server using the source (SIGTERM), run this command again until it says it is safe, then start the nodes with CLICKHOUSE_URL set.`;
}
