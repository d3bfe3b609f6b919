import type { IncidentTypes } from '@polyflow/contracts/incidents';
import type { TimeRange } from '../../reading/time-range.ts';

/** What the Incidents screens ask the event store. Definitions: docs/acquisition-and-incidents.md. */

/** One incident's figures over the range, before severity (decided by the incident service). */
export type IncidentSummary = {
  id: string;
  type: (typeof IncidentTypes)[number];
  title: string;
  firstSeenMs: number;
  lastSeenMs: number;
  occurrences: number;
  affectedUsers: number;
  affectedWallets: number;
  activeDays: number;
  failedTransactions: number;
  wallet: string | null;
  code: number | null;
  method: string | null;
  /** The latest occurrence's event id (ties on time broken by id). */
  latestEventId: string;
  /** Whether an occurrence in the range matches the search (true without a search). */
  isMatch: boolean;
};

export type SummaryOptions = {
  /** Free text: wallet address, type, message, stack, method, code or incident id. */
  search?: string | null;
  /** Only this incident (the detail screen). */
  incidentId?: string;
};

/** A range's summaries and, asked with them, every incident's lifetime summary. */
export type SummariesAndLives = { summaries: IncidentSummary[]; lives: IncidentSummary[] };

/** The stored error event behind the detail screen; big numbers as decimal strings. */
export type StoredOccurrence = {
  eventId: string;
  timeMs: number;
  userId: string;
  sessionId: string;
  source: string;
  wallet: string | null;
  message: string;
  stack: string | null;
  code: number | null;
  method: string | null;
  gasBalance: string | null;
  walletNonce: string | null;
  chainId: number | null;
  walletProvider: string | null;
  path: string | null;
  browser: string | null;
  os: string | null;
  country: string | null;
};

/** A session event before an occurrence, as stored (the service words it). */
export type StoredTrailEvent = {
  timeMs: number;
  type: string;
  path: string | null;
  title: string | null;
  walletAddress: string | null;
  walletProvider: string | null;
  chainId: number | null;
  txStage: string | null;
  txKind: string | null;
  txHash: string | null;
  txTo: string | null;
  selector: string | null;
  sigStage: string | null;
  sigMethod: string | null;
  errorSource: string | null;
  errorMessage: string | null;
  errorCode: number | null;
  rpcMethod: string | null;
};

/** An incident's life in whole UTC days: from its first to its last occurrence, both included. */
export type IncidentSpan = { incidentId: string; firstSeenMs: number; lastSeenMs: number };

/** Incidents whose lives cover the same UTC days (`YYYY-MM-DD`, both ends included) have the same reach. */
export type DaySpan = { firstDay: string; lastDay: string; incidentIds: string[] };

const utcDayOf = (timeMs: number) => new Date(timeMs).toISOString().slice(0, 10);

/** The spans' distinct UTC day ranges, each with its incidents: every adapter counts each range once. */
export function distinctDaySpans(spans: readonly IncidentSpan[]): DaySpan[] {
  const byDays = new Map<string, DaySpan>();
  for (const span of spans) {
    const firstDay = utcDayOf(span.firstSeenMs);
    const lastDay = utcDayOf(span.lastSeenMs);
    const key = `${firstDay}/${lastDay}`;
    const daySpan = byDays.get(key) ?? { firstDay, lastDay, incidentIds: [] };
    daySpan.incidentIds.push(span.incidentId);
    byDays.set(key, daySpan);
  }
  return [...byDays.values()];
}

export type IncidentQuestions = {
  /**
   * Every incident with an occurrence in the range (error events grouped by their `incident_id`). A failed
   * or reverted transaction of the same session within TX_FAILURE_WINDOW of an occurrence that is a
   * wallet's failure to send one (TRANSACTION_METHODS) counts as one the incident made fail. First seen is
   * the first occurrence ever; the rest is in the range.
   */
  incidentSummaries(
    projectId: string,
    range: TimeRange,
    options?: SummaryOptions,
  ): Promise<IncidentSummary[]>;
  /**
   * `incidentSummaries` of the range and, beside them, the lifetime summaries: the summaries of all time
   * up to `livesToMs` without the search (`incidentId` alone narrows them), what severity is decided from.
   * The list and the detail ask both at once, so an adapter may answer them together (ClickHouse: one
   * query, docs/decisions/042).
   */
  incidentSummariesAndLives(
    projectId: string,
    range: TimeRange,
    livesToMs: number,
    options?: SummaryOptions,
  ): Promise<SummariesAndLives>;
  /**
   * Distinct users of the project with any event during each incident's life (its UTC days, both ends
   * included): the denominator of its reach.
   */
  activeUsersDuring(projectId: string, spans: readonly IncidentSpan[]): Promise<Map<string, number>>;
  /** One stored error event by id. */
  occurrenceById(projectId: string, eventId: string): Promise<StoredOccurrence | null>;
  /** The session's events before the occurrence (at most TRAIL_LENGTH, within a day), oldest first. */
  sessionTrail(projectId: string, occurrence: StoredOccurrence): Promise<StoredTrailEvent[]>;
};
