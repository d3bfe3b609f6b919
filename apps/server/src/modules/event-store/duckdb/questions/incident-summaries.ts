import type { DuckDBConnection } from '@duckdb/node-api';
import { IncidentTypeLabels } from '@polyflow/contracts/incidents';
import type { TimeRange } from '../../../../reading/time-range.ts';
import {
  type IncidentSummary,
  type SummaryOptions,
  TRANSACTION_METHODS,
  TX_FAILURE_WINDOW,
} from '../../incident-questions.ts';
import { FROM, type Params, rangeParams, rowsOf, TO } from '../sql.ts';

/** The published SDK's own failures (source `sdk`) are Polyflow's problem, not the dapp's. */
const INCIDENT_SOURCES = `('window', 'promise', 'wallet')`;
const TYPE_LABEL = `CASE error_source ${Object.entries(IncidentTypeLabels)
  .map(([source, label]) => `WHEN '${source}' THEN '${label}'`)
  .join(' ')} END`;

const SENDING_METHODS = `(${TRANSACTION_METHODS.map((method) => `'${method}'`).join(', ')})`;

/** `%text%` for ILIKE, with the caller's own % and _ taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function searchCondition(params: Params, search: string): string {
  params.search = containsPattern(search);
  params.searchExact = search.toLowerCase();
  const like = (column: string) => `${column} ILIKE $search ESCAPE '\\'`;
  return [
    like('error_message'),
    like('error_stack'),
    like('wallet_address'),
    like('rpc_method'),
    like('error_source'),
    like(TYPE_LABEL),
    'CAST(error_code AS VARCHAR) = $searchExact',
    'incident_id = $searchExact',
  ].join(' OR ');
}

/**
 * Every incident with an occurrence in the range: error events grouped by their stored `incident_id`.
 * A failed or reverted transaction of the same session within 10 s of an occurrence that is a wallet's
 * failure to send one (severity.ts) counts as one the incident made fail. First seen is the first occurrence ever; the rest is in the range.
 * The latest occurrence's figures break ties on time by event id, like `latestEventId`.
 */
export async function incidentSummaries(
  connection: DuckDBConnection,
  projectId: string,
  range: TimeRange,
  options: SummaryOptions = {},
): Promise<IncidentSummary[]> {
  const params: Params = {
    ...rangeParams(projectId, range),
    before: BigInt(TX_FAILURE_WINDOW.beforeMs),
    after: BigInt(TX_FAILURE_WINDOW.afterMs),
  };
  const search = options.search?.trim();
  const match = search ? searchCondition(params, search) : 'true';
  let only = '';
  if (options.incidentId) {
    params.incident = options.incidentId;
    only = 'AND incident_id = $incident';
  }
  // The occurrences come from the derived `incident_occurrences` (the error events with an incident id,
  // ADR 005): in the range, and before it for each incident's first occurrence. The failed transactions
  // around them are the `failed`/`reverted` stages in [from - 10 s, to + 10 s), from the derived
  // `transaction_failures`.
  const sql = `
    WITH occurrences AS MATERIALIZED (
      SELECT *, (${match}) AS is_match
        FROM incident_occurrences
       WHERE project_id = $project AND ts >= ${FROM} AND ts < ${TO} ${only}
         AND error_source IN ${INCIDENT_SOURCES}
    ),
    failures AS (
      SELECT session_id, ts, tx_id
        FROM transaction_failures
       WHERE project_id = $project
         AND ts >= make_timestamp(($from::BIGINT - $before::BIGINT) * 1000)
         AND ts < make_timestamp(($to::BIGINT + $after::BIGINT) * 1000)
    ),
    tx_failures AS (
      SELECT o.incident_id, count(DISTINCT t.tx_id) AS failed
        FROM occurrences o
        JOIN failures t
          ON t.session_id = o.session_id
         AND t.ts >= o.ts - to_milliseconds($before::BIGINT) AND t.ts <= o.ts + to_milliseconds($after::BIGINT)
       WHERE o.error_source = 'wallet' AND o.rpc_method IN ${SENDING_METHODS}
       GROUP BY o.incident_id
    ),
    earlier AS (
      SELECT incident_id, min(ts) AS first_ts
        FROM incident_occurrences
       WHERE project_id = $project AND ts < ${FROM}
         AND incident_id IN (SELECT incident_id FROM occurrences)
       GROUP BY incident_id
    ),
    -- One pass of plain aggregates. The latest occurrence's figures are read from the occurrences at the
    -- latest time (below) rather than by arg_max over a (ts, id) key, and the distinct counts are the sizes
    -- of distinct lists (NULL left out, like count(DISTINCT)): over the largest project's 6,500-20,000
    -- occurrences, the struct-keyed arg_max calls took about 40 ms and DuckDB's DISTINCT aggregates
    -- 120-190 ms, this whole query 15-30 ms (bench, 10 M events; ADR 025).
    aggregates AS (
      SELECT incident_id,
             any_value(error_source) AS type,
             min(ts) AS first_ts,
             max(ts) AS last_ts,
             max(ts) FILTER (WHERE wallet_address IS NOT NULL) AS wallet_ts,
             count(*) AS occurrences,
             bool_or(is_match) AS is_match,
             len(list_distinct(list(user_id))) AS users,
             len(list_distinct(list(wallet_address))) AS wallets,
             len(list_distinct(list(ts::DATE))) AS days
        FROM occurrences
       GROUP BY incident_id
    ),
    -- Ties on time are broken by event id, like latestEventId.
    latest AS (
      SELECT o.incident_id, max(o.id) AS latest_event_id, arg_max(o.error_message, o.id) AS title,
             arg_max(o.error_code, o.id) AS code, arg_max(o.rpc_method, o.id) AS method
        FROM occurrences o JOIN aggregates a ON a.incident_id = o.incident_id AND a.last_ts = o.ts
       GROUP BY o.incident_id
    ),
    latest_wallet AS (
      SELECT o.incident_id, arg_max(o.wallet_address, o.id) AS wallet
        FROM occurrences o JOIN aggregates a ON a.incident_id = o.incident_id AND a.wallet_ts = o.ts
       WHERE o.wallet_address IS NOT NULL
       GROUP BY o.incident_id
    )
    SELECT a.incident_id AS id, a.type, l.title,
           epoch_ms(least(a.first_ts, e.first_ts))::DOUBLE AS first_seen,
           epoch_ms(a.last_ts)::DOUBLE AS last_seen,
           a.occurrences::DOUBLE AS occurrences,
           coalesce(t.failed, 0)::DOUBLE AS failed,
           w.wallet, l.code::DOUBLE AS code, l.method, l.latest_event_id, a.is_match,
           a.users::DOUBLE AS users, a.wallets::DOUBLE AS wallets, a.days::DOUBLE AS days
      FROM aggregates a
      JOIN latest l USING (incident_id)
      LEFT JOIN latest_wallet w USING (incident_id)
      LEFT JOIN tx_failures t USING (incident_id)
      LEFT JOIN earlier e USING (incident_id)`;
  const rows = await rowsOf(connection, sql, params);
  return rows.map((row) => ({
    id: String(row.id),
    type: String(row.type) as IncidentSummary['type'],
    title: String(row.title ?? ''),
    firstSeenMs: Number(row.first_seen),
    lastSeenMs: Number(row.last_seen),
    occurrences: Number(row.occurrences),
    affectedUsers: Number(row.users),
    affectedWallets: Number(row.wallets),
    activeDays: Number(row.days),
    failedTransactions: Number(row.failed),
    wallet: row.wallet == null ? null : String(row.wallet),
    code: row.code == null ? null : Number(row.code),
    method: row.method == null ? null : String(row.method),
    latestEventId: String(row.latest_event_id),
    isMatch: Boolean(row.is_match),
  }));
}
