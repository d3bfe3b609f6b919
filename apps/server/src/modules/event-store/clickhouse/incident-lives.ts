import { INCIDENT_SOURCES, sqlList } from '../domain.ts';
import { type ClickHouse, deleteRows, type Params } from './client.ts';

/**
 * `incident_lives`: one row per (project, incident) with the figures of its whole life over the incident
 * sources (docs/decisions/037-clickhouse-incident-lives-and-fixed-costs.md), the table DuckDB keeps under the same name
 * (ADR 035). An AggregatingMergeTree of aggregate states fed by a materialized view on `events`: each
 * state is a minimum, a maximum, an argMax by (time, id) or a distinct count (occurrences count distinct
 * (time, id)), so an event stored twice, loaded in several loads or out of order folds to the same row.
 * The failed transactions an incident made fail are not here: they pair an occurrence with a failure of
 * another load, which a view over one insert cannot see; the question pairs them when it reads.
 */

/** The states over the error events a SELECT reads, in the table's column order. */
const LIFE_STATES = `anyState(error_source) AS type_state,
         minState(ts) AS first_seen_state,
         maxState(ts) AS last_seen_state,
         uniqExactState(ts, id) AS occurrences_state,
         uniqExactState(user_id) AS users_state,
         uniqExactState(wallet_address) AS wallets_state,
         uniqExactState(toDate(ts, 'UTC')) AS days_state,
         argMaxState(error_message, (ts, id)) AS title_state,
         argMaxIfState(wallet_address, (ts, id), wallet_address IS NOT NULL) AS wallet_state,
         argMaxState(error_code, (ts, id)) AS code_state,
         argMaxState(rpc_method, (ts, id)) AS method_state,
         argMaxState(id, (ts, id)) AS latest_event_state`;

/** The lives of the incident occurrences among the rows of `table` (`where`: more conditions on them). */
export const incidentLivesOf = (table: string, where = '') =>
  `SELECT project_id, assumeNotNull(incident_id) AS incident_id,
         ${LIFE_STATES}
    FROM ${table}
   WHERE type = 'error' AND incident_id IS NOT NULL AND ifNull(error_source IN ${sqlList(INCIDENT_SOURCES)}, 0)${where ? ` AND ${where}` : ''}
   GROUP BY project_id, incident_id`;

/** The figures of the lives, merged, as the summaries name them (`incident_id` and the rest). */
export const LIFE_FIGURES = `anyMerge(type_state) AS type,
           argMaxMerge(title_state) AS title,
           toUnixTimestamp64Milli(minMerge(first_seen_state)) AS first_seen,
           toUnixTimestamp64Milli(maxMerge(last_seen_state)) AS last_seen,
           uniqExactMerge(occurrences_state) AS occurrences,
           uniqExactMerge(users_state) AS users,
           uniqExactMerge(wallets_state) AS wallets,
           uniqExactMerge(days_state) AS days,
           argMaxIfMerge(wallet_state) AS wallet,
           argMaxMerge(code_state) AS code,
           argMaxMerge(method_state) AS method,
           argMaxMerge(latest_event_state) AS latest_event_id`;

/**
 * The table takes the states' types from the SELECT that fills it (EMPTY AS SELECT: created, not
 * filled), so the view's states and the columns can never disagree. Granules of 64 rows rather than
 * 8,192: a question reads one project's few rows, and every state of a granule read is deserialized
 * (the distinct-count states are sets), so 8,192-row granules cost a project the states of the whole
 * table (30 ms of CPU against 14 for the bench's median project). Then the view, then the lives of the
 * error events already stored (`error_events`, complete since version 3). A load while the schema
 * migrates reaches the lives through the view, the copy or both, which folds to the same row.
 */
export const INCIDENT_LIVES_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS incident_lives
ENGINE = AggregatingMergeTree
ORDER BY (project_id, incident_id)
SETTINGS index_granularity = 64
EMPTY AS ${incidentLivesOf('events')}`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS incident_lives_of_events TO incident_lives AS
${incidentLivesOf('events')}`,
  `INSERT INTO incident_lives ${incidentLivesOf('error_events')}`,
];

/**
 * After a delete of events (any kind: a project, a user, a wallet, retention), run once `error_events`
 * is in line: the project's lives are rebuilt from its error events that stay (a few per cent of its
 * events). A load meanwhile folds in whether the view or the rebuild (or both) carries it.
 */
export async function alignIncidentLives(clickhouse: ClickHouse, params: Params): Promise<void> {
  const project = 'project_id = {project:String}';
  await deleteRows(clickhouse, 'incident_lives', project, params);
  await clickhouse.command(`INSERT INTO incident_lives ${incidentLivesOf('error_events', project)}`, params);
}
