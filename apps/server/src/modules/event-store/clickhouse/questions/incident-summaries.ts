import { IncidentTypeLabels, IncidentTypes } from '@polyflow/contracts/incidents';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import {
  type IncidentSummary,
  type SummaryOptions,
  TRANSACTION_METHODS,
  TX_FAILURE_WINDOW,
} from '../../incident-questions.ts';
import type { ClickHouse, Params } from '../client.ts';
import { ERROR_SUBSET, FAILED_TX_SUBSET } from '../derived-tables.ts';
import { INCIDENT_SOURCES, LIFE_FIGURES } from '../incident-lives.ts';
import { count, flag, numberOrNull, textOrNull, timeParam, utcDay } from '../question-sql.ts';
import { FROM, ms, rangeParams, TO } from '../sql.ts';

type SummaryRow = z.infer<typeof SummaryRow>;
const SummaryRow = z.object({
  kind: z.literal('summary'),
  incident_id: z.string(),
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
  latest_event_id: z.string(),
  is_match: flag,
});

/** The failed transactions paired with an incident's sending occurrences, counted. */
const FailedRow = z.object({ kind: z.literal('failed'), incident_id: z.string(), failed: count });

/** An incident's first error event before the range. */
const FirstRow = z.object({ kind: z.literal('first'), incident_id: z.string(), first_seen: count });

/**
 * A row of a summaries query: an incident's figures, its failed transactions (see `withFailures`) or its
 * first error event before the range (see `incidentSummaries`).
 */
const SummaryOrFailedRow = z.discriminatedUnion('kind', [SummaryRow, FailedRow, FirstRow]);

type Summary = SummaryRow & { failed: number };

const TYPE_LABEL = `multiIf(${Object.entries(IncidentTypeLabels)
  .map(([source, label]) => `error_source = '${source}', '${label}'`)
  .join(', ')}, NULL)`;

const SENDING_METHODS = `(${TRANSACTION_METHODS.map((method) => `'${method}'`).join(', ')})`;

/**
 * The free-text search over an occurrence. A case-insensitive substring test rather than ILIKE, so the
 * caller's % and _ are plain text without escaping (the HTTP interface reads backslashes in parameters).
 */
function searchCondition(params: Params, search: string): string {
  params.search = search;
  params.searchExact = search.toLowerCase();
  const contains = (column: string) => `positionCaseInsensitiveUTF8(${column}, {search:String}) > 0`;
  const conditions = [
    contains('error_message'),
    contains('error_stack'),
    contains('wallet_address'),
    contains('rpc_method'),
    contains('error_source'),
    contains(TYPE_LABEL),
    'toString(error_code) = {searchExact:String}',
    'incident_id = {searchExact:String}',
  ];
  return conditions.map((condition) => `ifNull(${condition}, 0)`).join(' OR ');
}

/**
 * The failed transactions paired with the sending occurrences in [from, to) (`incidentErrors`: the
 * conditions on the error events), as (incident_id, ts, tx_id): the failures are read within the window
 * beyond each end.
 */
const pairedFailures = (incidentErrors: string) => `
    SELECT o.incident_id AS incident_id, o.ts AS ts, t.tx_id AS tx_id
      FROM (SELECT incident_id, session_id, ts
              FROM ${ERROR_SUBSET.table}
             WHERE ${incidentErrors} AND ts >= ${FROM} AND ts < ${TO}
               AND error_source = 'wallet' AND ifNull(rpc_method IN ${SENDING_METHODS}, 0)) AS o
      JOIN (SELECT session_id, ts, tx_id
              FROM ${FAILED_TX_SUBSET.table}
             WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL
               AND ifNull(tx_stage IN ('failed', 'reverted'), 0)
               AND ts >= ${timeParam('failuresFrom')} AND ts < ${timeParam('failuresTo')}) AS t
        ON t.session_id = o.session_id
     WHERE ${ms('t.ts')} >= ${ms('o.ts')} - {before:Int64}
       AND ${ms('t.ts')} <= ${ms('o.ts')} + {after:Int64}`;

/**
 * `figures` (a SELECT of SummaryRow's columns after `kind`, one row per incident), and beside it, as rows of
 * their own, the failed transactions paired with the sending occurrences in [from, to) counted per
 * incident; the two are put together by `joinFailures`. A UNION ALL of two groupings rather than a JOIN of
 * them, or the pairs as one more part of the figures' grouping: chdb plans and runs that shape for less
 * (docs/decisions/038-clickhouse-contract-days-and-incident-query-shapes.md).
 */
const withFailures = (figures: string, incidentErrors: string) => `
    SELECT 'summary' AS kind, *, 0 AS failed FROM (${figures})
    UNION ALL
    SELECT 'failed', incident_id, NULL, NULL, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, '', 0, uniqExact(tx_id)
      FROM (${pairedFailures(incidentErrors)})
     GROUP BY incident_id`;

/**
 * The figures of each incident with its failed transactions (none without a row of them), first seen the
 * earlier of the figures' and the incident's first error event before the range (when a row gives it).
 */
function joinFailures(rows: readonly z.infer<typeof SummaryOrFailedRow>[]): Summary[] {
  const failed = new Map<string, number>();
  const firsts = new Map<string, number>();
  for (const row of rows) {
    if (row.kind === 'failed') failed.set(row.incident_id, row.failed);
    if (row.kind === 'first') firsts.set(row.incident_id, row.first_seen);
  }
  return rows.flatMap((row) =>
    row.kind === 'summary'
      ? [
          {
            ...row,
            first_seen: Math.min(row.first_seen, firsts.get(row.incident_id) ?? row.first_seen),
            failed: failed.get(row.incident_id) ?? 0,
          },
        ]
      : [],
  );
}

/**
 * The summaries of a range that holds every life (from the start of time, as the lifetimes ask), read
 * from `incident_lives` (ADR 037) and the failures paired with the lives' sending occurrences; null when
 * some life reaches `to` or beyond (an occurrence stamped later than the range's end), which only the
 * occurrences can answer.
 */
async function lifeSummaries(
  clickhouse: ClickHouse,
  params: Params,
  only: string,
  toMs: number,
): Promise<Summary[] | null> {
  const incidentErrors = `project_id = {project:String} AND type = 'error' AND incident_id IS NOT NULL ${only}`;
  const lives = `SELECT incident_id, ${LIFE_FIGURES}, 1 AS is_match
                   FROM incident_lives
                  WHERE project_id = {project:String} ${only}
                  GROUP BY incident_id`;
  const rows = joinFailures(
    await clickhouse.rows(withFailures(lives, incidentErrors), params, SummaryOrFailedRow),
  );
  return rows.every((row) => row.last_seen < toMs) ? rows : null;
}

/**
 * Every incident with an occurrence in the range: error events grouped by their stored `incident_id`, read
 * from the project's error events alone (`error_events`, derived-tables.ts), as the failures are from
 * `failed_transactions`.
 * A failed or reverted transaction of the same session within 10 s of an occurrence that is a wallet's
 * failure to send one counts as one the incident made fail. First seen is the first occurrence ever; the
 * rest is in the range. Ties on time are broken by event id, as for the latest occurrence.
 *
 * Three plain groupings in one query, their rows put together here (docs/decisions/038, after 037): the
 * range's occurrences with the columns the figures need, the earlier error events' first time (it only
 * moves first seen), and the failed transactions paired with the range's sending occurrences
 * (`withFailures`). chdb plans a UNION ALL of plain groupings for less than one grouping with -If
 * combinators over a union, or a JOIN of groupings. Without FINAL: every figure is a
 * minimum, a maximum, an argMax by (time, id) or a distinct count (occurrences count distinct (time, id),
 * the key a copy of an event repeats), which a copy not merged away yet leaves unchanged.
 */
export async function incidentSummaries(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  options: SummaryOptions = {},
): Promise<IncidentSummary[]> {
  const params: Params = {
    ...rangeParams(projectId, range),
    failuresFrom: range.fromMs - TX_FAILURE_WINDOW.beforeMs,
    failuresTo: range.toMs + TX_FAILURE_WINDOW.afterMs,
    before: TX_FAILURE_WINDOW.beforeMs,
    after: TX_FAILURE_WINDOW.afterMs,
  };
  const search = options.search?.trim();
  const match = search ? searchCondition(params, search) : '1';
  let only = '';
  if (options.incidentId) {
    params.incident = options.incidentId;
    only = 'AND incident_id = {incident:String}';
  }
  // Every event is stamped at or after the epoch (ingestion refuses others): from there, a range holds
  // whole lives, which `incident_lives` answers unless one reaches past its end.
  const lives =
    !search && range.fromMs <= 0 ? await lifeSummaries(clickhouse, params, only, range.toMs) : null;
  const incidentErrors = `project_id = {project:String} AND type = 'error' AND incident_id IS NOT NULL ${only}`;
  const inRange = `ts >= ${FROM} AND ts < ${TO}`;
  // The table named: an alias of the figures (`type`) would take the column's place in WHERE.
  const table = ERROR_SUBSET.table;
  const figures = `
    SELECT incident_id,
           any(error_source) AS type,
           argMax(error_message, (ts, id)) AS title,
           ${ms('min(ts)')} AS first_seen,
           ${ms('max(ts)')} AS last_seen,
           uniqExact(ts, id) AS occurrences,
           uniqExact(user_id) AS users,
           uniqExact(wallet_address) AS wallets,
           uniqExact(${utcDay('ts')}) AS days,
           argMaxIf(wallet_address, (ts, id), wallet_address IS NOT NULL) AS wallet,
           argMax(error_code, (ts, id)) AS code,
           argMax(rpc_method, (ts, id)) AS method,
           argMax(id, (ts, id)) AS latest_event_id,
           max(${match}) AS is_match
      FROM ${table}
     WHERE project_id = {project:String} AND ${table}.type = 'error' AND incident_id IS NOT NULL ${only}
       AND ${inRange} AND ifNull(error_source IN ${INCIDENT_SOURCES}, 0)
     GROUP BY incident_id`;
  // The error events before the range move first seen (whatever their source, as DuckDB's).
  const firsts = `
    SELECT 'first', incident_id, NULL, NULL, ${ms('min(ts)')}, 0, 0, 0, 0, 0, NULL, NULL, NULL, '', 0, 0
      FROM ${table}
     WHERE ${incidentErrors} AND ts < ${FROM}
     GROUP BY incident_id`;
  const rows =
    lives ??
    joinFailures(
      await clickhouse.rows(
        `${withFailures(figures, incidentErrors)}\n    UNION ALL${firsts}`,
        params,
        SummaryOrFailedRow,
      ),
    );
  return rows.map((row) => ({
    id: row.incident_id,
    type: row.type,
    title: row.title ?? '',
    firstSeenMs: row.first_seen,
    lastSeenMs: row.last_seen,
    occurrences: row.occurrences,
    affectedUsers: row.users,
    affectedWallets: row.wallets,
    activeDays: row.days,
    failedTransactions: row.failed,
    wallet: row.wallet,
    code: row.code,
    method: row.method,
    latestEventId: row.latest_event_id,
    isMatch: row.is_match,
  }));
}
