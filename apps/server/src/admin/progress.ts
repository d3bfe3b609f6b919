import type { CopyProgress } from './copy-events.ts';

const BAR_WIDTH = 30;
/** Without a terminal: a line at most this often. */
const LINE_EVERY_MS = 5_000;

const figure = (value: number) => Math.round(value).toLocaleString('en-US');

/**
 * A progress bar on a terminal (rewritten in place), progress lines otherwise (a log, CI): done, total,
 * rate and the time left.
 */
export function createProgress(output: { isTTY?: boolean; write(text: string): unknown }): CopyProgress {
  let total = 0;
  let done = 0;
  let startedAt = 0;
  let copiedAtStart = 0;
  let lastLineAt = 0;

  function describe(): string {
    const elapsedS = (Date.now() - startedAt) / 1000;
    const rate = elapsedS > 0 ? (done - copiedAtStart) / elapsedS : 0;
    const leftS = rate > 0 ? (total - done) / rate : Number.NaN;
    const percent = total > 0 ? (done / total) * 100 : 100;
    const eta = Number.isFinite(leftS) ? `, ${Math.ceil(leftS)} s left` : '';
    return `${percent.toFixed(1)} % (${figure(done)} of ${figure(total)} events, ${figure(rate)} events/s${eta})`;
  }

  function show(isLast: boolean): void {
    if (output.isTTY) {
      const filled = total > 0 ? Math.round((done / total) * BAR_WIDTH) : BAR_WIDTH;
      output.write(`\r[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${describe()}\x1b[K`);
      if (isLast) output.write('\n');
      return;
    }
    const now = Date.now();
    if (isLast || now - lastLineAt >= LINE_EVERY_MS) {
      lastLineAt = now;
      output.write(`copy-events: ${describe()}\n`);
    }
  }

  return {
    start(totalEvents, alreadyCopied) {
      total = totalEvents;
      done = alreadyCopied;
      copiedAtStart = alreadyCopied;
      startedAt = Date.now();
      lastLineAt = startedAt;
      if (alreadyCopied > 0)
        output.write(`copy-events: ${figure(alreadyCopied)} events were copied before; continuing\n`);
      show(false);
    },
    advance(events) {
      done += events;
      show(false);
    },
    finish() {
      show(true);
    },
  };
}
