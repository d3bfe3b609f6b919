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
import { ERROR_EVENTS, FAILED_TRANSACTIONS } from '../derived-tables.ts';
import { count, flag, numberOrNull, textOrNull, timeParam, utcDay } from '../question-sql.ts';
import { FROM, ms, rangeParams, TO } from '../sql.ts';

const SummaryRow = z.object({
  id: z.string(),
  type: z.enum(IncidentTypes),
  title: textOrNull,
  first_seen: count,
  last_seen: count,
  occurrences: count,
  users: count,
  wallets: count,
  days: count,
  failed: count,
  wallet: textOrNull,
  code: numberOrNull,
  method: textOrNull,
  latest_event_id: z.string(),
  is_match: flag,
});

/** The published SDK's own failures (source `sdk`) are Polyflow's problem, not the dapp's. */
const INCIDENT_SOURCES = `('window', 'promise', 'wallet')`;
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
 * Every incident with an occurrence in the range: error events grouped by their stored `incident_id`, read
 * from the project's error events alone (`error_events`, derived-tables.ts), as the failures are from
 * `failed_transactions`.
 * A failed or reverted transaction of the same session within 10 s of an occurrence that is a wallet's
 * failure to send one counts as one the incident made fail. First seen is the first occurrence ever; the
 * rest is in the range. Ties on time are broken by event id, as for the latest occurrence.
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
  // One scan of the incidents' error events up to `to`: the occurrences in the range, and the earlier
  // ones that only move an incident's first sighting.
  const occurrence = `ts >= ${FROM} AND ifNull(error_source IN ${INCIDENT_SOURCES}, 0)`;
  const sql = `
    WITH occurrences AS (
      SELECT *, ${occurrence} AS in_range, (${match}) AS matches
        FROM ${ERROR_EVENTS}
       WHERE project_id = {project:String} AND type = 'error' AND incident_id IS NOT NULL
         AND ts < ${TO} ${only}
    ),
    failures AS (
      SELECT session_id, ts, tx_id
        FROM ${FAILED_TRANSACTIONS}
       WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL
         AND ifNull(tx_stage IN ('failed', 'reverted'), 0)
         AND ts >= ${timeParam('failuresFrom')} AND ts < ${timeParam('failuresTo')}
    ),
    tx_failures AS (
      SELECT o.incident_id AS incident_id, uniqExact(t.tx_id) AS failed
        FROM (SELECT incident_id, session_id, ts FROM occurrences
               WHERE in_range AND error_source = 'wallet' AND ifNull(rpc_method IN ${SENDING_METHODS}, 0)) AS o
        JOIN failures AS t ON t.session_id = o.session_id
       WHERE ${ms('t.ts')} >= ${ms('o.ts')} - {before:Int64}
         AND ${ms('t.ts')} <= ${ms('o.ts')} + {after:Int64}
       GROUP BY o.incident_id
    ),
    summaries AS (
      SELECT incident_id,
             anyIf(error_source, in_range) AS type,
             argMaxIf(error_message, (ts, id), in_range) AS title,
             ${ms('min(ts)')} AS first_seen,
             ${ms('maxIf(ts, in_range)')} AS last_seen,
             countIf(in_range) AS occurrences,
             uniqExactIf(user_id, in_range) AS users,
             uniqExactIf(wallet_address, in_range) AS wallets,
             uniqExactIf(${utcDay('ts')}, in_range) AS days,
             argMaxIf(wallet_address, (ts, id), in_range AND wallet_address IS NOT NULL) AS wallet,
             argMaxIf(error_code, (ts, id), in_range) AS code,
             argMaxIf(rpc_method, (ts, id), in_range) AS method,
             argMaxIf(id, (ts, id), in_range) AS latest_event_id,
             max(in_range AND matches) AS is_match
        FROM occurrences
       WHERE in_range OR ts < ${FROM}
       GROUP BY incident_id
      HAVING countIf(in_range) > 0
    )
    SELECT s.incident_id AS id, s.*, ifNull(f.failed, 0) AS failed
      FROM summaries AS s
      LEFT JOIN tx_failures AS f ON f.incident_id = s.incident_id
    SETTINGS join_use_nulls = 1`;
  const rows = await clickhouse.rows(sql, params, SummaryRow);
  return rows.map((row) => ({
    id: row.id,
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
