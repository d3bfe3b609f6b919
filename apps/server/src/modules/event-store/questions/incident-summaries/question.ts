import { IncidentTypes } from '@polyflow/contracts/incidents';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { count, flag, numberOrNull, text, textOrNull } from '../../rows.ts';

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

/** Incident summaries (docs/acquisition-and-incidents.md#figures-all-over-the-queried-range-except-first-seen-severity-and-status). */
export type IncidentSummariesQuestion = {
  /**
   * Every incident with an occurrence in the range (error events grouped by their `incident_id`). A failed
   * or reverted transaction of the same session within TX_FAILURE_WINDOW (domain.ts) of an occurrence that
   * is a wallet's failure to send one (TRANSACTION_METHODS) counts as one the incident made fail. First
   * seen is the first occurrence ever; the rest is in the range.
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
};

/**
 * An incident's figures from its occurrences, as both engines' queries answer them (DuckDB with its
 * failed transactions beside them; ClickHouse tags each row with its `kind`, the failed transactions in
 * rows of their own).
 */
export const FiguresRow = z.object({
  incident_id: text,
  type: z.enum(IncidentTypes),
  title: textOrNull,
  first_seen: count,
  last_seen: count,
  occurrences: count,
  users: count,
  wallets: count,
  days: count,
  wallet: textOrNull,
  code: numberOrNull,
  method: textOrNull,
  latest_event_id: text,
  is_match: flag,
});

export const summaryOf = (row: z.infer<typeof FiguresRow>, failedTransactions: number): IncidentSummary => ({
  id: row.incident_id,
  type: row.type,
  title: row.title ?? '',
  firstSeenMs: row.first_seen,
  lastSeenMs: row.last_seen,
  occurrences: row.occurrences,
  affectedUsers: row.users,
  affectedWallets: row.wallets,
  activeDays: row.days,
  failedTransactions,
  wallet: row.wallet,
  code: row.code,
  method: row.method,
  latestEventId: row.latest_event_id,
  isMatch: row.is_match,
});
