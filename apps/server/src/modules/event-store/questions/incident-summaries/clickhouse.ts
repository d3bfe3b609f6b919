import { IncidentTypeLabels } from '@polyflow/contracts/incidents';
import { z } from 'zod';
import type { TimeRange } from '../../../../reading/time-range.ts';
import type { ClickHouse, Params } from '../../clickhouse/client.ts';
import { ERROR_SUBSET, FAILED_TX_SUBSET } from '../../clickhouse/derived-tables.ts';
import { LIFE_FIGURES } from '../../clickhouse/incident-lives.ts';
import { timeParam, utcDay } from '../../clickhouse/question-sql.ts';
import { FROM, ms, rangeParams, TO } from '../../clickhouse/sql.ts';
import { INCIDENT_SOURCES, sqlList, TRANSACTION_METHODS, TX_FAILURE_WINDOW } from '../../domain.ts';
import { count } from '../../rows.ts';
import { FiguresRow, type IncidentSummary, type SummaryOptions, summaryOf } from './question.ts';

const SummaryRow = FiguresRow.extend({ kind: z.literal('summary') });

const TYPE_LABEL = `multiIf(${Object.entries(IncidentTypeLabels)
  .map(([source, label]) => `error_source = '${source}', '${label}'`)
  .join(', ')}, NULL)`;

const SENDING_METHODS = sqlList(TRANSACTION_METHODS);

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
 * The failed transactions paired with the sending occurrences in [{pairsFrom}, {pairsTo}) (`incidentErrors`:
 * the conditions on the error events), as (incident_id, ts, tx_id): the failures are read within the window
 * beyond each end.
 */
const pairedFailures = (incidentErrors: string) => `
    SELECT o.incident_id AS incident_id, o.ts AS ts, t.tx_id AS tx_id
      FROM (SELECT incident_id, session_id, ts
              FROM ${ERROR_SUBSET.table}
             WHERE ${incidentErrors} AND ts >= ${timeParam('pairsFrom')} AND ts < ${timeParam('pairsTo')}
               AND error_source = 'wallet' AND ifNull(rpc_method IN ${SENDING_METHODS}, 0)) AS o
      JOIN (SELECT session_id, ts, tx_id
              FROM ${FAILED_TX_SUBSET.table}
             WHERE project_id = {project:String} AND type = 'tx' AND tx_id IS NOT NULL
               AND ifNull(tx_stage IN ('failed', 'reverted'), 0)
               AND ts >= ${timeParam('failuresFrom')} AND ts < ${timeParam('failuresTo')}) AS t
        ON t.session_id = o.session_id
     WHERE ${ms('t.ts')} >= ${ms('o.ts')} - {before:Int64}
       AND ${ms('t.ts')} <= ${ms('o.ts')} + {after:Int64}`;

/** What one summaries query reads: the range's occurrences, the incidents' lives, or both. */
type Parts = { occurrences: boolean; lives: boolean };

/**
 * The rows of one summaries query, by `kind`: the range's figures from its occurrences ('summary') with
 * the error events before the range ('first': they only move first seen, whatever their source, as
 * DuckDB's), the lives' figures from `incident_lives` ('life', ADR 037), and the failed transactions
 * paired with the sending occurrences, counted per incident once for the range (`failed`) and once for
 * the lives up to {livesTo} (`life_failed`) over one join of the two periods' occurrences (ADR 042). A
 * UNION ALL of plain groupings, put together by `summariesOf`: chdb plans and runs that shape for less than
 * a JOIN of groupings, or -If combinators over a union (ADR 038).
 */
function summariesSql(parts: Parts, match: string, only: string): string {
  const incidentErrors = `project_id = {project:String} AND type = 'error' AND incident_id IS NOT NULL ${only}`;
  // The table named: an alias of the figures (`type`) would take the column's place in WHERE.
  const table = ERROR_SUBSET.table;
  const selects: string[] = [];
  if (parts.occurrences) {
    selects.push(`
    SELECT 'summary' AS kind, *, 0 AS failed, 0 AS life_failed FROM (
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
       AND ts >= ${FROM} AND ts < ${TO} AND ifNull(error_source IN ${sqlList(INCIDENT_SOURCES)}, 0)
     GROUP BY incident_id)`);
    selects.push(`
    SELECT 'first', incident_id, NULL, NULL, ${ms('min(ts)')}, 0, 0, 0, 0, 0, NULL, NULL, NULL, '', 0, 0, 0
      FROM ${table}
     WHERE ${incidentErrors} AND ts < ${FROM}
     GROUP BY incident_id`);
  }
  if (parts.lives) {
    selects.push(`
    SELECT 'life' AS kind, incident_id, ${LIFE_FIGURES}, 1 AS is_match, 0 AS failed, 0 AS life_failed
      FROM incident_lives
     WHERE project_id = {project:String} ${only}
     GROUP BY incident_id`);
  }
  selects.push(`
    SELECT 'failed', incident_id, NULL, NULL, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, '', 0,
           uniqExactIf(tx_id, ts >= ${FROM} AND ts < ${TO}),
           ${parts.lives ? `uniqExactIf(tx_id, ts < ${timeParam('livesTo')})` : '0'}
      FROM (${pairedFailures(incidentErrors)})
     GROUP BY incident_id`);
  return selects.join('\n    UNION ALL');
}

type Row = z.infer<typeof Row>;
const Row = z.discriminatedUnion('kind', [
  SummaryRow,
  SummaryRow.extend({ kind: z.literal('life') }),
  z.object({ kind: z.literal('failed'), incident_id: z.string(), failed: count, life_failed: count }),
  z.object({ kind: z.literal('first'), incident_id: z.string(), first_seen: count }),
]);

/**
 * The summaries of the rows of `kind` ('summary' or 'life'), each with its failed transactions (none
 * without a 'failed' row; `failed` counts the range's, `life_failed` the lives'); a range's first seen is
 * the earlier of its figures' and the incident's first error event before the range (when a 'first' row
 * gives it).
 */
function summariesOf(
  rows: readonly Row[],
  kind: 'summary' | 'life',
  failedOf: 'failed' | 'life_failed',
): IncidentSummary[] {
  const failed = new Map<string, number>();
  const firsts = new Map<string, number>();
  for (const row of rows) {
    if (row.kind === 'failed') failed.set(row.incident_id, row[failedOf]);
    if (row.kind === 'first' && kind === 'summary') firsts.set(row.incident_id, row.first_seen);
  }
  return rows.flatMap((row) =>
    row.kind === kind
      ? [
          {
            ...summaryOf(row, failed.get(row.incident_id) ?? 0),
            firstSeenMs: Math.min(row.first_seen, firsts.get(row.incident_id) ?? row.first_seen),
          },
        ]
      : [],
  );
}

/** Every summary ends before `toMs` (a life can reach past it: an occurrence stamped later than now). */
const endBefore = (summaries: readonly IncidentSummary[], toMs: number) =>
  summaries.every((summary) => summary.lastSeenMs < toMs);

/**
 * The range's summaries and, with `livesToMs`, the lives' (all time up to it, without the search), from one
 * query. A range from the start of time without a search holds whole lives (every event is stamped at or
 * after the epoch: ingestion refuses others), which `incident_lives` answers (ADR 037) unless one reaches
 * past its end; so do the lives. When one does, that part is read again from the occurrences.
 */
async function summariesAndLives(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  livesToMs: number | undefined,
  options: SummaryOptions & { fromOccurrences?: boolean },
): Promise<{ summaries: IncidentSummary[]; lives: IncidentSummary[] }> {
  const search = options.search?.trim();
  const rangeFromLives = !search && range.fromMs <= 0 && !options.fromOccurrences;
  const parts = { occurrences: !rangeFromLives, lives: rangeFromLives || livesToMs !== undefined };
  const pairs = {
    fromMs: livesToMs === undefined ? range.fromMs : Math.min(range.fromMs, 0),
    toMs: Math.max(range.toMs, livesToMs ?? range.toMs),
  };
  const params: Params = {
    ...rangeParams(projectId, range),
    livesTo: livesToMs ?? range.toMs,
    pairsFrom: pairs.fromMs,
    pairsTo: pairs.toMs,
    failuresFrom: pairs.fromMs - TX_FAILURE_WINDOW.beforeMs,
    failuresTo: pairs.toMs + TX_FAILURE_WINDOW.afterMs,
    before: TX_FAILURE_WINDOW.beforeMs,
    after: TX_FAILURE_WINDOW.afterMs,
  };
  const match = search ? searchCondition(params, search) : '1';
  let only = '';
  if (options.incidentId) {
    params.incident = options.incidentId;
    only = 'AND incident_id = {incident:String}';
  }
  const rows = await clickhouse.rows(summariesSql(parts, match, only), params, Row);
  let summaries = rangeFromLives
    ? summariesOf(rows, 'life', 'failed')
    : summariesOf(rows, 'summary', 'failed');
  let lives = livesToMs === undefined ? [] : summariesOf(rows, 'life', 'life_failed');
  if (rangeFromLives && !endBefore(summaries, range.toMs)) {
    summaries = (
      await summariesAndLives(clickhouse, projectId, range, undefined, { ...options, fromOccurrences: true })
    ).summaries;
  }
  if (livesToMs !== undefined && !endBefore(lives, livesToMs)) {
    const allTime = { fromMs: 0, toMs: livesToMs };
    const fromOccurrences = { incidentId: options.incidentId, fromOccurrences: true };
    lives = (await summariesAndLives(clickhouse, projectId, allTime, undefined, fromOccurrences)).summaries;
  }
  return { summaries, lives };
}

/**
 * Every incident with an occurrence in the range: error events grouped by their stored `incident_id`, read
 * from the project's error events alone (`error_events`, derived-tables.ts), as the failures are from
 * `failed_transactions`.
 * A failed or reverted transaction of the same session within 10 s of an occurrence that is a wallet's
 * failure to send one counts as one the incident made fail. First seen is the first occurrence ever; the
 * rest is in the range. Ties on time are broken by event id, as for the latest occurrence.
 *
 * Without FINAL: every figure is a minimum, a maximum, an argMax by (time, id) or a distinct count
 * (occurrences count distinct (time, id), the key a copy of an event repeats), which a copy not merged
 * away yet leaves unchanged.
 */
export async function incidentSummaries(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  options: SummaryOptions = {},
): Promise<IncidentSummary[]> {
  return (await summariesAndLives(clickhouse, projectId, range, undefined, options)).summaries;
}

/** The port's `incidentSummariesAndLives`: both from one query (ADR 042). */
export function incidentSummariesAndLives(
  clickhouse: ClickHouse,
  projectId: string,
  range: TimeRange,
  livesToMs: number,
  options: SummaryOptions = {},
): Promise<{ summaries: IncidentSummary[]; lives: IncidentSummary[] }> {
  return summariesAndLives(clickhouse, projectId, range, livesToMs, options);
}
