import { IncidentTypeLabels } from '@polyflow/contracts/incidents';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import { INCIDENT_SOURCES, sqlList, TX_FAILURE_WINDOW } from '../../domain.ts';
import { inTransaction } from '../../duckdb/derived-tables.ts';
import {
  type Connection,
  FAILED_NEAR,
  FROM,
  type Params,
  rangeParams,
  rowsOf,
  SENDING_OCCURRENCE,
  TO,
} from '../../duckdb/sql.ts';
import { count, numberOrNull, text, textOrNull } from '../../rows.ts';
import { FiguresRow, type IncidentSummary, type SummaryOptions, summaryOf } from './question.ts';

/** An incident's life from the derived `incident_spans`: DuckDB's own read before its figures. */
const LifeRow = z.object({
  incident_id: text,
  error_source: FiguresRow.shape.type,
  title: textOrNull,
  first_any: count,
  first_seen: count,
  last_seen: count,
  wallet: textOrNull,
  code: numberOrNull,
  method: textOrNull,
  latest_id: text,
});
/** Members of whole lives by kind, from the derived `incident_members`. */
const MembersRow = z.object({ incident_id: text, kind: text, members: count });
const OccurrenceFiguresRow = FiguresRow.extend({ failed: count });

const TYPE_LABEL = `CASE error_source ${Object.entries(IncidentTypeLabels)
  .map(([source, label]) => `WHEN '${source}' THEN '${label}'`)
  .join(' ')} END`;

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

/** A column of the latest occurrence with one, if it lies at the latest time (incident_spans keeps the same). */
const latestFigure = (column: string) =>
  `CASE WHEN max(ts) FILTER (WHERE ${column} IS NOT NULL) = max(ts)
        THEN arg_max(${column}, (ts, id)) FILTER (WHERE ${column} IS NOT NULL) END`;

/**
 * An incident's life and latest occurrence, from the derived `incident_spans` (ADR 035), and its first
 * occurrence of any source: an earlier one of another source still moves its first sighting.
 */
type Life = Omit<
  IncidentSummary,
  'occurrences' | 'affectedUsers' | 'affectedWallets' | 'activeDays' | 'failedTransactions' | 'isMatch'
> & { firstAnyMs: number };

/** The project's incidents whose whole life lies in [$from, $to) (as `isWhole` says of a `Life`). */
const WHOLE_LIVES = `SELECT incident_id FROM incident_spans
     WHERE project_id = $project AND first_ts >= ${FROM} AND last_ts < ${TO}`;

/**
 * Every incident with an occurrence in the range (docs/acquisition-and-incidents.md; the port's
 * `incidentSummaries`). An incident whose whole life lies in the range (always so for the lifetimes the
 * service asks for) is answered from the derived `incident_spans` and `incident_members`, without reading
 * its occurrences; the others, and every incident under a search, from their occurrences in the range.
 * One snapshot for all of it.
 */
export async function incidentSummaries(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  options: SummaryOptions = {},
): Promise<IncidentSummary[]> {
  const search = options.search?.trim() || undefined;
  return inTransaction(connection, async () => {
    const lives = await livesDuring(connection, projectId, range, options.incidentId);
    if (lives.size === 0) return [];
    const isWhole = (life: Life) => life.firstSeenMs >= range.fromMs && life.lastSeenMs < range.toMs;
    const wholes = search ? 0 : [...lives.values()].filter(isWhole).length;
    // One connection runs one query at a time.
    const counted =
      wholes > 0 ? await wholeLives(connection, projectId, range, options.incidentId, lives) : [];
    const scanned =
      wholes < lives.size
        ? await occurrencesInRange(connection, projectId, range, { ...options, search }, wholes > 0)
        : [];
    // First seen: the first occurrence in the range, or an earlier one of any source.
    const earlier = (id: string) => {
      const firstAnyMs = lives.get(id)?.firstAnyMs ?? Infinity;
      return firstAnyMs < range.fromMs ? firstAnyMs : Infinity;
    };
    return [...counted, ...scanned].map((summary) => ({
      ...summary,
      firstSeenMs: Math.min(summary.firstSeenMs, earlier(summary.id)),
    }));
  });
}

/** The lives of the project's incidents that overlap the range: only those can have an occurrence in it. */
async function livesDuring(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  incidentId: string | undefined,
): Promise<Map<string, Life>> {
  const params: Params = rangeParams(projectId, range);
  if (incidentId) params.incident = incidentId;
  const rows = await rowsOf(
    connection,
    `SELECT incident_id, error_source, title, epoch_ms(first_any_ts)::DOUBLE AS first_any,
            epoch_ms(first_ts)::DOUBLE AS first_seen,
            epoch_ms(last_ts)::DOUBLE AS last_seen, wallet, code::DOUBLE AS code, method, latest_id
       FROM incident_spans
      WHERE project_id = $project AND first_ts < ${TO} AND last_ts >= ${FROM}
        ${incidentId ? 'AND incident_id = $incident' : ''}`,
    params,
    LifeRow,
  );
  return new Map(
    rows.map((row) => [
      row.incident_id,
      {
        id: row.incident_id,
        type: row.error_source,
        title: row.title ?? '',
        firstSeenMs: row.first_seen,
        lastSeenMs: row.last_seen,
        wallet: row.wallet,
        code: row.code,
        method: row.method,
        latestEventId: row.latest_id,
        firstAnyMs: row.first_any,
      },
    ]),
  );
}

/** Incidents whose whole life lies in the range: their lifetime counts, from `incident_members`. */
async function wholeLives(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  incidentId: string | undefined,
  lives: ReadonlyMap<string, Life>,
): Promise<IncidentSummary[]> {
  const params: Params = rangeParams(projectId, range);
  if (incidentId) params.incident = incidentId;
  // Grouped by kind and folded here: cheaper than five filtered counts per incident.
  const rows = await rowsOf(
    connection,
    `SELECT incident_id, kind, count(*)::DOUBLE AS members
       FROM incident_members
      WHERE project_id = $project AND incident_id IN (${WHOLE_LIVES})
        ${incidentId ? 'AND incident_id = $incident' : ''}
      GROUP BY incident_id, kind`,
    params,
    MembersRow,
  );
  const counts = new Map<string, Record<string, number>>();
  for (const row of rows)
    counts.set(row.incident_id, { ...counts.get(row.incident_id), [row.kind]: row.members });
  return [...counts].flatMap(([id, count]) => {
    const life = lives.get(id);
    if (!life) return [];
    const { firstAnyMs, ...figures } = life;
    return [
      {
        ...figures,
        occurrences: count.occurrence ?? 0,
        affectedUsers: count.user ?? 0,
        affectedWallets: count.wallet ?? 0,
        activeDays: count.day ?? 0,
        failedTransactions: count.failed_tx ?? 0,
        isMatch: true,
      },
    ];
  });
}

/**
 * Incidents' figures from their occurrences in the range (the derived `incident_occurrences`, ADR 005),
 * all incidents or those whose life the range cuts (`exceptWhole`). A failed or reverted transaction of the same session within 10 s of an
 * occurrence that is a wallet's failure to send one (severity.ts) counts as one the incident made fail:
 * the `failed`/`reverted` stages in [from - 10 s, to + 10 s), from the derived `transaction_failures`.
 * First seen here is the first occurrence in the range.
 */
async function occurrencesInRange(
  connection: Connection,
  projectId: string,
  range: TimeRange,
  options: SummaryOptions,
  exceptWhole: boolean,
): Promise<IncidentSummary[]> {
  const params: Params = {
    ...rangeParams(projectId, range),
    before: BigInt(TX_FAILURE_WINDOW.beforeMs),
    after: BigInt(TX_FAILURE_WINDOW.afterMs),
  };
  const match = options.search ? searchCondition(params, options.search) : 'true';
  const conditions = [
    options.incidentId ? 'AND incident_id = $incident' : '',
    exceptWhole ? `AND incident_id NOT IN (${WHOLE_LIVES})` : '',
  ].join(' ');
  if (options.incidentId) params.incident = options.incidentId;
  const sql = `
    WITH occurrences AS MATERIALIZED (
      SELECT *, (${match}) AS is_match
        FROM incident_occurrences
       WHERE project_id = $project AND ts >= ${FROM} AND ts < ${TO} ${conditions}
         AND error_source IN ${sqlList(INCIDENT_SOURCES)}
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
        JOIN failures t ON ${FAILED_NEAR('o', 't')}
       WHERE ${SENDING_OCCURRENCE('o')}
       GROUP BY o.incident_id
    ),
    -- One pass of aggregates. The distinct counts are the sizes of distinct lists (NULL left out, like
    -- count(DISTINCT), and cheaper: ADR 025). The latest occurrence is the greatest (time, id); a figure
    -- of it is that of the greatest id that has one among the occurrences at the latest time (NULL when
    -- none there has one). In one pass rather than joined back to the occurrences at the latest time:
    -- each join and grouping costs milliseconds even over a few rows (ADR 035).
    aggregates AS (
      SELECT incident_id,
             any_value(error_source) AS type,
             min(ts) AS first_ts,
             max(ts) AS last_ts,
             count(*) AS occurrences,
             bool_or(is_match) AS is_match,
             len(list_distinct(list(user_id))) AS users,
             len(list_distinct(list(wallet_address))) AS wallets,
             len(list_distinct(list(ts::DATE))) AS days,
             arg_max(id, (ts, id)) AS latest_event_id,
             ${latestFigure('error_message')} AS title,
             ${latestFigure('error_code')} AS code,
             ${latestFigure('rpc_method')} AS method,
             arg_max(wallet_address, (ts, id)) FILTER (WHERE wallet_address IS NOT NULL) AS wallet
        FROM occurrences
       GROUP BY incident_id
    )
    SELECT a.incident_id, a.type, a.title,
           epoch_ms(a.first_ts)::DOUBLE AS first_seen,
           epoch_ms(a.last_ts)::DOUBLE AS last_seen,
           a.occurrences::DOUBLE AS occurrences,
           coalesce(t.failed, 0)::DOUBLE AS failed,
           a.wallet, a.code::DOUBLE AS code, a.method, a.latest_event_id, a.is_match,
           a.users::DOUBLE AS users, a.wallets::DOUBLE AS wallets, a.days::DOUBLE AS days
      FROM aggregates a
      LEFT JOIN tx_failures t USING (incident_id)`;
  const rows = await rowsOf(connection, sql, params, OccurrenceFiguresRow);
  return rows.map((row) => summaryOf(row, row.failed));
}
