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

/** The window in which a failed or reverted transaction of the same session is blamed on an occurrence. */
export const TX_FAILURE_WINDOW = {
  /** A failed wallet call is reported after the SDK read the balance, so just after the tx's own failure. */
  beforeMs: 10_000,
  afterMs: 5 * 60_000,
} as const;

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

/** The trail holds at most this many events. */
export const TRAIL_LENGTH = 20;

export type IncidentQuestions = {
  /**
   * Every incident with an occurrence in the range (error events grouped by their `incident_id`). A failed
   * or reverted transaction of the same session within TX_FAILURE_WINDOW of an occurrence counts as one the
   * incident made fail. First seen is the first occurrence ever; the rest is in the range.
   */
  incidentSummaries(
    projectId: string,
    range: TimeRange,
    options?: SummaryOptions,
  ): Promise<IncidentSummary[]>;
  /** One stored error event by id. */
  occurrenceById(projectId: string, eventId: string): Promise<StoredOccurrence | null>;
  /** The session's events before the occurrence (at most TRAIL_LENGTH, within a day), oldest first. */
  sessionTrail(projectId: string, occurrence: StoredOccurrence): Promise<StoredTrailEvent[]>;
};
