import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  /** The slice's rows, in arrival order. */
  rows(slice: Slice): Promise<EventRow[]>;
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

type Checkpoint = { target: string; slices: Record<string, string> };

const sliceKey = (slice: Slice) => `${slice.projectId}/${new Date(slice.dayMs).toISOString().slice(0, 10)}`;
const fingerprint = (slice: Slice) => `${slice.events}@${slice.lastReceivedMs}`;

function readCheckpoint(file: string, target: string): Checkpoint {
  if (!existsSync(file)) return { target, slices: {} };
  const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
  if (checkpoint.target !== target) {
    throw new AdminError(
      `${file} records a copy into ${checkpoint.target}, not ${target}. Delete it to copy into ${target} from the start.`,
    );
  }
  return checkpoint;
}

/** Written whole and renamed into place: an interruption leaves the previous checkpoint, never half of one. */
function writeCheckpoint(file: string, checkpoint: Checkpoint): void {
  const next = `${file}.next`;
  writeFileSync(next, JSON.stringify(checkpoint));
  renameSync(next, file);
}

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
}): Promise<CopyReport> {
  const { source, target, progress } = options;
  const checkpoint = readCheckpoint(options.checkpointFile, options.targetName);
  mkdirSync(options.workDir, { recursive: true });
  const segment = path.join(options.workDir, 'copy-slice.log');

  const slices = await source.slices();
  const pending = slices.filter((slice) => checkpoint.slices[sliceKey(slice)] !== fingerprint(slice));
  const eventsInSource = slices.reduce((sum, slice) => sum + slice.events, 0);
  const eventsPending = pending.reduce((sum, slice) => sum + slice.events, 0);
  progress.start(eventsInSource, eventsInSource - eventsPending);

  let eventsCopied = 0;
  let slicesCopied = 0;
  try {
    for (const slice of pending) {
      if (options.maxSlices !== undefined && slicesCopied >= options.maxSlices) break;
      const rows = await source.rows(slice);
      let lines = '';
      for (const row of rows) lines += `${rowsRecord(row)}\n`;
      writeFileSync(segment, lines);
      await target.loadSegment(segment);
      // The slice as it was read (events that arrived meanwhile make a later pass copy it again).
      checkpoint.slices[sliceKey(slice)] = fingerprint({
        ...slice,
        events: rows.length,
        lastReceivedMs: rows.reduce((latest, row) => Math.max(latest, row.received_at), 0),
      });
      writeCheckpoint(options.checkpointFile, checkpoint);
      eventsCopied += rows.length;
      slicesCopied++;
      progress.advance(rows.length);
    }
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
      isSourceUnchanged && after.every((slice) => checkpoint.slices[sliceKey(slice)] === fingerprint(slice)),
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
