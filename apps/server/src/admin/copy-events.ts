import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AdminError } from './admin-error.ts';

/**
 * `copy-events`: an embedded event store copied into ClickHouse (docs/scaling.md, ADR 053), a load of up to
 * 100,000 events at a time. A load is a run of slices (a project's events received in one UTC day) that
 * the source writes into a copy file itself and the target inserts as it is: one JSON array per event,
 * the values in the events' column order (event-row.ts), times as `YYYY-MM-DD hh:mm:ss.mmm` UTC text,
 * big numbers as decimal text, null for no value (ClickHouse's JSONCompactEachRow). No row passes
 * through JavaScript. The next load is written while the current one is inserted. Re-running never
 * counts an event twice: the target keeps an event once by its sort key (project, client time, id).
 * A checkpoint file names every slice copied with its fingerprint (count and latest arrival), so an
 * interrupted copy continues where it stopped, and a later pass copies only the slices that changed since.
 */

/** A project's events that arrived in one UTC day, as the source counts them. */
export type Slice = { projectId: string; dayMs: number; events: number; lastReceivedMs: number };

export type CopySource = {
  /** Every slice, by project and day. */
  slices(): Promise<Slice[]>;
  /** Writes the events of these slices (sorted by project and day) into a new copy file; answers how many. */
  exportSlices(slices: readonly Slice[], file: string): Promise<number>;
};

export type CopyTarget = {
  /** Inserts a copy file; inserting one twice leaves each event once. */
  loadCopiedRows(file: string): Promise<void>;
};

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

/** Events per load: few large inserts suit ClickHouse (each insert is a part to merge). */
const LOAD_EVENTS = 100_000;

export async function copyEvents(options: {
  source: CopySource;
  target: CopyTarget;
  /** Where the copy into this target is remembered (resumes, final passes). */
  checkpointFile: string;
  /** Names the target in the checkpoint (a URL without its password). */
  targetName: string;
  /** Scratch directory for the copy files (two at a time, each up to a load's events). */
  workDir: string;
  progress: CopyProgress;
  /** Stops after this many slices (tests interrupt a copy with it). */
  maxSlices?: number;
  /** Events per load into the target (default 100,000); a slice larger than this is a load of its own. */
  loadEvents?: number;
}): Promise<CopyReport> {
  const { source, target, progress } = options;
  const checkpoint = openCheckpoint(options.checkpointFile, options.targetName);
  mkdirSync(options.workDir, { recursive: true });
  const files = [path.join(options.workDir, 'copy-a.jsonl'), path.join(options.workDir, 'copy-b.jsonl')];

  const slices = await source.slices();
  const pending = slices.filter((slice) => checkpoint.slices.get(sliceKey(slice)) !== fingerprint(slice));
  const eventsInSource = slices.reduce((sum, slice) => sum + slice.events, 0);
  const eventsPending = pending.reduce((sum, slice) => sum + slice.events, 0);
  progress.start(eventsInSource, eventsInSource - eventsPending);

  const loadEvents = options.loadEvents ?? LOAD_EVENTS;
  const limit = Math.min(pending.length, options.maxSlices ?? pending.length);
  let next = 0;
  /** The next run of pending slices up to a load's worth of events, written into `file`. */
  const exportNext = async (file: string) => {
    const batch: Slice[] = [];
    let batchEvents = 0;
    while (next < limit) {
      const slice = pending[next] as Slice;
      if (batch.length > 0 && batchEvents + slice.events > loadEvents) break;
      batch.push(slice);
      batchEvents += slice.events;
      next++;
    }
    // The fingerprints are the ones read before the export: a slice that grew meanwhile is copied with
    // its new events, and copied again by the next pass (its fingerprint no longer matches).
    return { file, batch, batchEvents, exported: await source.exportSlices(batch, file) };
  };

  let eventsCopied = 0;
  let slicesCopied = 0;
  let exporting: ReturnType<typeof exportNext> | undefined;
  try {
    if (limit > 0) exporting = exportNext(files[0] as string);
    for (let turn = 1; exporting; turn++) {
      const load = await exporting;
      exporting = next < limit ? exportNext(files[turn % 2] as string) : undefined;
      await target.loadCopiedRows(load.file);
      // Remembered once inserted: an interruption before this repeats the load, which changes nothing.
      checkpoint.remember(load.batch);
      eventsCopied += load.exported;
      slicesCopied += load.batch.length;
      progress.advance(load.batchEvents);
    }
  } finally {
    await exporting?.catch(() => undefined);
    for (const file of files) rmSync(file, { force: true });
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
