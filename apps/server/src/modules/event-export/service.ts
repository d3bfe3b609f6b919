import type { TransactionRow } from '@polyflow/contracts/analytics';
import { DEFAULT_TIME_ZONE } from '@polyflow/contracts/time-zone';
import { AppError } from '../../errors.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import type { IngestionQuestions } from '../event-store/event-store.ts';
import { type ExportFormat, formatEvents } from './event-formats.ts';
import { formatTransactionsCsv } from './transaction-csv.ts';

export type EventExportService = ReturnType<typeof createEventExportService>;

/**
 * The analytics service's filtered history, a page at a time (handed by app.ts): it checks access, the
 * range and the filter before it returns.
 */
export type HistoryPages = (
  userId: string,
  projectId: string,
  input: TransactionExportInput,
) => Promise<{ range: { fromMs: number; toMs: number }; pages: AsyncIterable<TransactionRow[]> }>;

/** The history CSV's query: the range (open ends as the dashboards') and the history's search and filters. */
export type TransactionExportInput = {
  from?: string | null;
  to?: string | null;
  search?: string | null;
  status?: string | null;
  type?: string | null;
  contract?: string | null;
  selector?: string | null;
  /** The Analytics filters as GraphQL's `filters` argument, checked by the history's service. */
  filters?: unknown;
};

export type EventExportDeps = {
  projects: ProjectAccess;
  store: Pick<IngestionQuestions, 'exportEvents'>;
  history?: HistoryPages;
};

export type ExportRequest = {
  fromMs: number;
  toMs: number;
  format: ExportFormat;
  /** Adds `local_time`, each event's time in the project's zone (docs/data-access-and-privacy.md). */
  localTime?: boolean;
};

const fileTime = (ms: number) => new Date(ms).toISOString().replaceAll(':', '').replace('.000', '');

export type ExportLimits = {
  /** Exports running at once for one project (default 2). */
  perProject?: number;
  /** Exports running at once on this node, all projects together (default 8). */
  perNode?: number;
  /**
   * Exports running at once for one user over all their projects (a read token counts for the project's
   * owner): default half the node's (at least a project's), so that one account's projects cannot take
   * every slot.
   */
  perUser?: number;
  /**
   * An export whose client has taken none of the bytes sent for this long is ended and gives its slot
   * back (default 60 s): a client that opens exports and never reads them held the node's slots forever.
   */
  stallMs?: number;
};

/** What a refused export is told to wait, in seconds: an export of a large range runs for minutes. */
export const EXPORT_RETRY_AFTER_SECONDS = 30;

/**
 * The raw export: every stored event of a project in [from, to) of client time, streamed. At most
 * `perProject` exports of a project, `perUser` of one user's projects and `perNode` in all run at once (429
 * TOO_MANY_EXPORTS with Retry-After beyond): one tenant's exports cannot take every reader connection and
 * the JavaScript thread from the others (docs/decisions/047), nor every slot.
 */
export function createEventExportService(
  { projects, store, history }: EventExportDeps,
  limits: ExportLimits = {},
) {
  const perProject = limits.perProject ?? 2;
  const perNode = limits.perNode ?? 8;
  const perUser = limits.perUser ?? Math.max(perProject, Math.floor(perNode / 2));
  const running = new Map<string, number>();
  const runningOfUser = new Map<string, number>();
  let total = 0;

  const less = (counts: Map<string, number>, key: string) => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  };

  /**
   * Takes a slot for the project's export on behalf of `userId`, or throws 429; the returned function
   * gives it back (once).
   */
  function takeSlot(projectId: string, userId: string): () => void {
    const ofProject = running.get(projectId) ?? 0;
    const ofUser = runningOfUser.get(userId) ?? 0;
    if (ofProject >= perProject || ofUser >= perUser || total >= perNode) {
      const message =
        ofProject >= perProject
          ? `This project already has ${perProject} exports running; retry when one has finished.`
          : ofUser >= perUser
            ? `You already have ${perUser} exports running; retry when one has finished.`
            : `This server already runs ${perNode} exports; retry in a moment.`;
      throw new AppError(429, 'TOO_MANY_EXPORTS', message, undefined, EXPORT_RETRY_AFTER_SECONDS);
    }
    running.set(projectId, ofProject + 1);
    runningOfUser.set(userId, ofUser + 1);
    total++;
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      total--;
      less(running, projectId);
      less(runningOfUser, userId);
    };
  }

  return {
    /** How long an export may wait for its client to take what it was sent before it is ended. */
    stallMs: limits.stallMs ?? 60_000,

    /**
     * Checks access and takes one of the export slots: call `release` when the response is over (sent,
     * failed or abandoned by the client), whatever happened.
     */
    async exportEvents(
      userId: string,
      projectId: string,
      { fromMs, toMs, format, localTime }: ExportRequest,
    ) {
      const project = await projects.getProjectFor(userId, projectId);
      const release = takeSlot(project.id, userId);
      const timeZone = localTime ? (project.timeZone ?? DEFAULT_TIME_ZONE) : null;
      // The store writes the lines on the engine's threads (docs/decisions/077); formatEvents adds the
      // CSV header and formats the batches of a store that hands values instead.
      const batches = store.exportEvents(project.id, {
        from: new Date(fromMs),
        to: new Date(toMs),
        text: { format, timeZone },
      });
      return {
        filename: `polyflow-events-${project.id}-${fileTime(fromMs)}-${fileTime(toMs)}.${format}`,
        chunks: formatEvents(batches, format, timeZone),
        release,
      };
    },

    /**
     * The Transaction History of a range as CSV, with its search and filters: every transaction they keep,
     * in the history's order, read a page at a time. Takes an export slot as `exportEvents` does.
     */
    async exportTransactions(userId: string, projectId: string, input: TransactionExportInput) {
      if (!history) throw new Error('The transaction history was not handed to the export service.');
      const project = await projects.getProjectFor(userId, projectId);
      const { range, pages } = await history(userId, project.id, input);
      const release = takeSlot(project.id, userId);
      return {
        filename: `polyflow-transactions-${project.id}-${fileTime(range.fromMs)}-${fileTime(range.toMs)}.csv`,
        chunks: formatTransactionsCsv(pages),
        release,
      };
    },

    /** Exports running now (tests, metrics). */
    running: (projectId?: string): number =>
      projectId === undefined ? total : (running.get(projectId) ?? 0),
  };
}
